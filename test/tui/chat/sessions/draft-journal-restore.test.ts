/**
 * Saved unsent input put back by the chat controller (chat/draft-restore.ts): the draft in the
 * composer with its notice, waiting messages queued and held until the user's next Enter, a thread's
 * draft on restoreFor; and the journal keeping a draft Ctrl+C emptied on the way out.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from '../../../../src/tui/chat/controller.js';
import { DraftJournal, type CwdDrafts, type DraftJournalPort } from '../../../../src/tui/chat/sessions/draft-journal.js';
import { decodeDraftDocument, unsentInputOf, type DraftDocument } from '../../../../src/tui/composer/draft-snapshot.js';
import { initialComposerState } from '../../../../src/tui/composer/state.js';
import type { Submission } from '../../../../src/tui/composer/types.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import { createChatStore, type ChatStore } from '../../../../src/tui/store.js';
import { Driver, image } from '../../composer/driver.js';
import { FakeAppServerClient } from '../fake-client.js';
import { createHarness, FakeClock, probeMedia, TEST_FEEDBACK, text } from '../harness.js';

const sub = (t: string): Submission => ({ text: t, textElements: [], attachments: [] });

function savedDraft(vim = false): DraftDocument {
  const d = new Driver({ vimEnabled: vim });
  if (vim) d.type('i');
  d.type('look at ');
  d.settle();
  d.paste('P'.repeat(1200));
  d.send({ type: 'attach', attachment: image('/saved/shot.png') });
  if (vim) d.key('escape');
  return {
    version: 1,
    cwd: '/work',
    threadId: null,
    pid: 1,
    ...unsentInputOf(d.state, { pendingSteers: [], rejectedSteers: [], queued: [] }),
  };
}

class FakeJournal implements DraftJournalPort {
  cwd: CwdDrafts = { document: null, keptThreads: [] };
  threads = new Map<string, DraftDocument>();
  loadForCwd = async (): Promise<CwdDrafts> => this.cwd;
  loadForThread = async (id: string): Promise<DraftDocument | null> => this.threads.get(id) ?? null;
}

interface Setup {
  client: FakeAppServerClient;
  store: ChatStore;
  clock: FakeClock;
  ctrl: ChatController;
  settle(): Promise<void>;
  press(name: Parameters<typeof key>[0]): void;
  type(t: string): void;
  cells(): string[];
}

async function start(journal: FakeJournal): Promise<Setup> {
  const client = new FakeAppServerClient();
  const clock = new FakeClock();
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia, platform: 'linux' }));
  const ctrl = new ChatController({
    client,
    store,
    config: {
      model: 'fake-model',
      reasoningEffort: null,
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      sandboxWritableRoots: [],
      sandboxNetworkAccess: false,
      modelSupportsImages: true,
      vimModeDefault: false,
      warnings: [],
    },
    cwd: '/work',
    now: () => clock.now,
    schedule: clock.schedule,
    readClipboardImage: async () => ({ error: 'none' }),
    searchFiles: async () => [],
    platform: 'linux',
    feedback: TEST_FEEDBACK,
    draftJournal: journal,
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      await ctrl.idle();
      await new Promise((r) => setImmediate(r));
    }
  };
  await ctrl.start();
  await settle();
  return {
    client,
    store,
    clock,
    ctrl,
    settle,
    press: (name) => {
      clock.advance(30);
      ctrl.handleInput(key(name));
    },
    type: (t) => {
      for (const ch of t) {
        clock.advance(30);
        ctrl.handleInput(charKey(ch));
      }
      clock.advance(30);
    },
    cells: () =>
      store
        .getState()
        .cells.map((c) => (c.kind === 'info' ? `• ${c.text}${c.hint ? ` (${c.hint})` : ''}` : c.kind === 'user' ? `› ${c.text}` : c.kind)),
  };
}

const startedTexts = (client: FakeAppServerClient): string[] =>
  client.requestsOf('turn/start').map((p) =>
    (p.input as Array<{ type: string; text?: string }>)
      .filter((i) => i.type === 'text')
      .map((i) => i.text)
      .join(''),
  );

describe('restoring at launch', () => {
  it('puts the draft back with its paste, image and Vim mode, and says so in one line', async () => {
    const journal = new FakeJournal();
    journal.cwd = { document: savedDraft(true), keptThreads: [] };
    const s = await start(journal);
    const composer = s.store.getState().composer;
    expect(composer.ta.text).toBe('look at [Pasted Content 1200 chars][Image #1] ');
    expect(composer.ta.elements.map((e) => e.kind)).toEqual(['paste', 'image']);
    expect(composer.attachments[0]).toMatchObject({ placeholder: '[Image #1]', path: '/saved/shot.png' });
    expect(composer.vimEnabled).toBe(true);
    expect(composer.vim.mode).toBe('normal');
    expect(s.cells()).toEqual(['• Restored your unsent draft: 1 paste, 1 image']);
    // Normal-mode commands work on it; then /vim turns Vim off: the controller's setting followed the restore.
    s.type('0D');
    expect(s.store.getState().composer.ta.text).toBe('');
    s.type('i/vim');
    s.press('enter');
    await s.settle();
    expect(s.store.getState().composer.vimEnabled).toBe(false);
    expect(s.client.requestsOf('turn/start')).toEqual([]);
  });

  it('waiting messages come back queued and are not sent by themselves; Enter sends them first, then the draft', async () => {
    const journal = new FakeJournal();
    const doc = savedDraft();
    doc.waiting = [
      { submission: sub('steer that was pending'), action: 'plain' },
      { submission: sub('queued follow-up'), action: 'plain' },
    ];
    journal.cwd = { document: doc, keptThreads: [] };
    const s = await start(journal);
    expect(s.cells()).toEqual([
      '• Restored your unsent draft: 1 paste, 1 image and 2 queued messages (The 2 queued messages wait: your next Enter sends them (before anything you type).)',
    ]);
    expect(s.store.getState().queued.map((q) => q.text)).toEqual(['steer that was pending', 'queued follow-up']);
    expect(s.client.requestsOf('turn/start')).toEqual([]);

    s.press('enter');
    await s.settle();
    expect(startedTexts(s.client)).toEqual(['steer that was pending']);
    expect(s.store.getState().queued.map((q) => q.text)).toEqual(['queued follow-up', `look at ${'P'.repeat(1200)}[Image #1]`]);
    for (const id of ['turn-1', 'turn-2']) {
      s.client.emit('turn/started', {
        threadId: 'thread-1',
        turn: {
          id,
          items: [],
          itemsView: 'notLoaded',
          status: 'inProgress',
          error: null,
          startedAt: null,
          completedAt: null,
          durationMs: null,
        },
      });
      s.client.emit('turn/completed', {
        threadId: 'thread-1',
        turn: {
          id,
          items: [],
          itemsView: 'notLoaded',
          status: 'completed',
          error: null,
          startedAt: null,
          completedAt: null,
          durationMs: null,
        },
      });
      await s.settle();
    }
    expect(startedTexts(s.client)).toEqual(['steer that was pending', 'queued follow-up', `look at ${'P'.repeat(1200)}[Image #1]`]);
  });

  it('with only waiting messages, Enter on the empty composer sends them', async () => {
    const journal = new FakeJournal();
    journal.cwd = {
      document: { ...savedDraft(), draft: null, waiting: [{ submission: sub('only this'), action: 'plain' }] },
      keptThreads: [],
    };
    const s = await start(journal);
    expect(s.cells()).toEqual([
      '• Restored 1 queued message (The queued message waits: your next Enter sends it (before anything you type).)',
    ]);
    s.press('enter');
    await s.settle();
    expect(s.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('only this')]]);
  });

  it('names the threads begun here whose draft is kept for their resume', async () => {
    const journal = new FakeJournal();
    journal.cwd = { document: null, keptThreads: ['th-7'] };
    const s = await start(journal);
    expect(s.cells()).toEqual(['• An unsent draft is kept with session th-7: tiller resume th-7 brings it back.']);
  });
});

describe('restoreFor (resume and fork)', () => {
  it("puts the thread's draft back and answers whether there was one", async () => {
    const journal = new FakeJournal();
    journal.threads.set('th-3', savedDraft());
    const s = await start(journal);
    expect(await s.ctrl.restoreFor('th-none')).toBe(false);
    expect(await s.ctrl.restoreFor('th-3')).toBe(true);
    expect(s.store.getState().composer.ta.text).toBe('look at [Pasted Content 1200 chars][Image #1] ');
    expect(s.cells()).toEqual(['• Restored your unsent draft: 1 paste, 1 image']);
  });
});

describe('the journal and Ctrl+C', () => {
  let home: string | null = null;
  afterEach(() => {
    if (home !== null) rmSync(home, { recursive: true, force: true });
    home = null;
  });

  async function withJournal(): Promise<{
    h: Awaited<ReturnType<typeof createHarness>>;
    journal: DraftJournal;
    files: () => string[];
    saved: () => DraftDocument;
  }> {
    home = mkdtempSync(path.join(tmpdir(), 'tiller-journal-ctrlc-'));
    const h = await createHarness();
    const journal = new DraftJournal({
      home,
      cwd: '/work',
      store: h.store,
      schedule: h.clock.schedule,
      now: () => h.clock.now,
      tmpDir: path.join(home, 'no-tmp'),
      warn: () => undefined,
    });
    journal.start();
    const dir = path.join(home, 'drafts');
    const files = (): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []);
    return { h, journal, files, saved: () => decodeDraftDocument(readFileSync(path.join(dir, files()[0]!), 'utf8')) };
  }

  it('Ctrl+C Ctrl+C with a draft quits with the draft kept', async () => {
    const { h, journal, saved } = await withJournal();
    h.type('keep me');
    h.paste('Q'.repeat(1100));
    h.ctrlKey('c');
    expect(h.composerText()).toBe('');
    h.ctrlKey('c');
    expect(h.store.getState().exitRequested).toBe(true);
    journal.close();
    expect(saved().draft?.text).toBe('keep me[Pasted Content 1100 chars]');
    expect(saved().draft?.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1100 chars]', text: 'Q'.repeat(1100) }]);
  });

  it('a draft emptied by Ctrl+C is kept while the composer stays empty, dropped once something new is typed; a submitted draft leaves nothing', async () => {
    const { h, journal, files, saved } = await withJournal();
    const written = async (): Promise<void> => {
      h.clock.advance(300);
      await journal.idle();
    };
    h.type('old');
    h.ctrlKey('c');
    await written();
    expect(saved().draft?.text).toBe('old');
    h.type('new');
    await written();
    expect(saved().draft?.text).toBe('new');
    h.press('enter');
    await h.settle();
    await written();
    expect(files()).toEqual([]);
    journal.close();
    expect(files()).toEqual([]);
  });
});
