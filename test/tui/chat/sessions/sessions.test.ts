import { describe, expect, it } from 'vitest';
import {
  JsonRpcError,
  JSONRPC_INVALID_REQUEST,
  type Thread,
  type ThreadResumeResult,
  type Turn,
  type V2UserInput,
} from '../../../../src/protocol/api.js';
import { BACKTRACK_HINT } from '../../../../src/tui/chat/sessions/backtrack.js';
import { NO_LATEST_SESSION_MESSAGE, resumeCommandLine } from '../../../../src/tui/chat/sessions/sessions.js';
import { MAX_RESTORED_TURNS } from '../../../../src/tui/chat/sessions/transcript-restore.js';
import { FakeAppServerClient, fakeThread, turn } from '../fake-client.js';
import { createHarness, PNG_ATTACHMENT, text, type Harness } from '../harness.js';

function recorded(id: string, prompt: V2UserInput[] | string, answer: string): Turn {
  const content = typeof prompt === 'string' ? [text(prompt)] : prompt;
  return {
    id,
    items: [
      { type: 'userMessage', id: `${id}-u`, content },
      { type: 'agentMessage', id: `${id}-a`, text: answer },
    ],
    itemsView: 'full',
    status: 'completed',
    error: null,
    startedAt: 1,
    completedAt: 2,
    durationMs: 1,
  };
}

function resumed(thread: Thread, extra: Partial<ThreadResumeResult> = {}): ThreadResumeResult {
  return {
    thread,
    model: thread.model,
    modelProvider: thread.modelProvider,
    cwd: thread.cwd,
    approvalPolicy: 'on-request',
    approvalsReviewer: 'user',
    sandbox: { type: 'workspaceWrite' },
    reasoningEffort: null,
    ...extra,
  };
}

const SAVED = fakeThread('saved-1', {
  model: 'old-model',
  preview: 'first question',
  turns: [recorded('s-t1', 'first question', 'first **answer**'), recorded('s-t2', 'second question', 'second answer')],
});
const USAGE = {
  total: { inputTokens: 100, cachedInputTokens: 10, outputTokens: 20, reasoningOutputTokens: 0, totalTokens: 120 },
  last: { inputTokens: 50, cachedInputTokens: 0, outputTokens: 5, reasoningOutputTokens: 0, totalTokens: 55 },
};
const SAVED_USAGE_LINE = 'Token usage so far: total=110 input=90 (+ 10 cached) output=20';

function savedClient(): FakeAppServerClient {
  return new FakeAppServerClient()
    .always('thread/resume', (p) => {
      if (p.threadId !== SAVED.id) throw new JsonRpcError(JSONRPC_INVALID_REQUEST, `no session with id ${p.threadId}`);
      return resumed(SAVED, { reasoningEffort: 'high', tillerTokenUsage: USAGE, tillerRolloutWarnings: ['a torn last line was skipped'] });
    })
    .always('thread/list', () => ({ data: [{ ...SAVED, turns: [] }], nextCursor: null }));
}

/** A turn of the current thread starts and ends (notifications carry the thread's id). */
function answerTurn(h: Harness, threadId: string, turnId: string): void {
  h.client.emit('turn/started', { threadId, turn: turn(turnId) });
  h.client.emit('turn/completed', { threadId, turn: turn(turnId, 'completed') });
}

async function send(h: Harness, message: string, threadId: string, turnId: string): Promise<void> {
  h.type(message);
  h.press('enter');
  await h.settle();
  answerTurn(h, threadId, turnId);
  await h.settle();
}

describe('opening a saved session', () => {
  it('tiller resume ID: the recorded transcript, the thread’s model, effort and token usage; the next message continues it', async () => {
    const client = savedClient();
    const h = await createHarness({ client, session: { kind: 'resume', threadId: 'saved-1' } });
    expect(client.requests.map((r) => r.method)).toEqual(['initialize', 'thread/resume']);
    expect(client.requestsOf('thread/resume')[0]).toEqual({
      threadId: 'saved-1',
      cwd: '/work',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
      tillerTurnsLimit: MAX_RESTORED_TURNS,
    });
    expect(h.cellTexts()).toEqual([
      '› first question',
      'agent: first **answer**',
      '› second question',
      'agent: second answer',
      '⚠ a torn last line was skipped',
    ]);
    const s = h.store.getState();
    expect(s.threadId).toBe('saved-1');
    expect(s.footer).toMatchObject({ model: 'old-model', effort: 'high' });
    expect(s.tokenUsage).toEqual(USAGE);
    expect(s.cells.filter((c) => c.kind === 'user').map((c) => (c.kind === 'user' ? c.turnId : null))).toEqual(['s-t1', 's-t2']);
    h.type('more');
    h.press('enter');
    await h.settle();
    expect(client.requestsOf('turn/start').at(-1)).toMatchObject({
      threadId: 'saved-1',
      input: [text('more')],
      model: 'old-model',
      effort: 'high',
    });
  });

  it('-m goes with the resume, so the thread goes on with that model', async () => {
    const client = savedClient();
    await createHarness({ client, session: { kind: 'resume', threadId: 'saved-1' }, explicitModel: 'new-model' });
    expect(client.requestsOf('thread/resume')[0]).toMatchObject({ model: 'new-model' });
  });

  it('an unknown id: a message, and the chat goes on in a new thread', async () => {
    const h = await createHarness({ client: savedClient(), session: { kind: 'resume', threadId: 'nope' } });
    expect(h.client.requests.map((r) => r.method)).toEqual(['initialize', 'thread/resume', 'thread/start']);
    expect(h.cellTexts()).toEqual(['■ Could not resume the session: no session with id nope. This is a new session.']);
    expect(h.store.getState().threadId).toBe('thread-1');
    expect(h.ctrl.exitLine()).toBeNull();
  });

  it('a session another Tiller holds is forked, with a message naming the holder and the fork', async () => {
    const client = new FakeAppServerClient()
      .always('thread/resume', () => {
        throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'session saved-1 is open in another Tiller (pid 4242)', {
          tillerSessionLocked: { pid: 4242 },
        });
      })
      .always('thread/fork', (p) => resumed(fakeThread('fork-1', { turns: SAVED.turns, forkedFromId: p.threadId })));
    const h = await createHarness({ client, session: { kind: 'resume', threadId: 'saved-1' } });
    expect(client.requestsOf('thread/fork')[0]).toEqual({
      threadId: 'saved-1',
      cwd: '/work',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
      tillerTurnsLimit: MAX_RESTORED_TURNS,
    });
    expect(h.store.getState().threadId).toBe('fork-1');
    expect(h.cellTexts().at(-1)).toBe('• Session saved-1 is open in another Tiller (pid 4242), so this is a fork of it: fork-1.');
    expect(h.cellTexts()).toContain('› second question');
  });

  it('-c / --last: the newest thread of this directory; none yet: a new thread and a notice', async () => {
    const client = savedClient();
    const h = await createHarness({ client, session: { kind: 'latest' } });
    expect(client.requestsOf('thread/list')[0]).toEqual({ cwd: '/work', limit: 1, sourceKinds: ['cli', 'vscode', 'appServer'] });
    expect(h.store.getState().threadId).toBe('saved-1');

    const empty = await createHarness({ session: { kind: 'latest' } });
    // No interactive session: then any (a tiller exec run), then a new one.
    expect(empty.client.requests.map((r) => r.method)).toEqual(['initialize', 'thread/list', 'thread/list', 'thread/start']);
    expect(empty.client.requestsOf('thread/list')[1]).toEqual({ cwd: '/work', limit: 1 });
    expect(empty.cellTexts()).toEqual([`• ${NO_LATEST_SESSION_MESSAGE}`]);
  });
});

describe('the launch picker (tiller resume)', () => {
  it('lists the sessions, filters as one types, and Enter resumes; a prompt given with it goes after', async () => {
    const other = fakeThread('other-1', { preview: 'unrelated chat', updatedAt: 50 });
    const client = savedClient().always('thread/list', () => ({ data: [{ ...SAVED, updatedAt: 10, turns: [] }, other], nextCursor: null }));
    const h = await createHarness({ client, session: { kind: 'pick' }, initialInput: { text: 'and then?', attachments: [] } });
    expect(h.store.getState().threadId).toBeNull();
    expect(h.store.getState().resumePicker).toMatchObject({ atLaunch: true, rows: [{ id: 'other-1' }, { id: 'saved-1' }] });
    expect(client.requestsOf('thread/list')[0]).toEqual({ limit: 100 });
    h.type('frst');
    expect(h.store.getState().resumePicker?.query).toBe('frst');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().resumePicker).toBeNull();
    expect(client.requestsOf('thread/resume')[0]).toMatchObject({ threadId: 'saved-1' });
    expect(h.cellTexts().slice(0, 2)).toEqual(['› first question', 'agent: first **answer**']);
    expect(client.requestsOf('turn/start')[0]).toMatchObject({ threadId: 'saved-1', input: [text('and then?')] });
  });

  it('Esc leaves Tiller, with no thread and no resume line', async () => {
    const h = await createHarness({ client: savedClient(), session: { kind: 'pick' } });
    h.press('escape');
    expect(h.store.getState().exitRequested).toBe(true);
    expect(h.client.requestsOf('thread/start')).toEqual([]);
    expect(h.ctrl.exitLine()).toBeNull();
  });
});

describe('/resume and /fork inside the chat', () => {
  it('/resume: the picker over the chat; Enter clears the screen and prints the resumed transcript', async () => {
    const h = await createHarness({ client: savedClient() });
    h.type('/resume');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().resumePicker).toMatchObject({ atLaunch: false, rows: [{ id: 'saved-1' }] });
    const generation = h.store.getState().transcriptGeneration;
    h.press('enter');
    await h.settle();
    expect(h.store.getState().transcriptGeneration).toBe(generation + 1);
    expect(h.cellTexts()).toEqual([
      '› first question',
      'agent: first **answer**',
      '› second question',
      'agent: second answer',
      '⚠ a torn last line was skipped',
      '• Resumed session saved-1.',
    ]);
    expect(h.store.getState().threadId).toBe('saved-1');
  });

  it('/resume: Esc closes the picker and the chat goes on; the current session is marked, not resumed again', async () => {
    const client = savedClient().always('thread/list', () => ({
      data: [fakeThread('thread-1', { preview: 'this one' })],
      nextCursor: null,
    }));
    const h = await createHarness({ client });
    h.type('/resume');
    h.press('enter');
    await h.settle();
    h.press('escape');
    expect(h.store.getState().resumePicker).toBeNull();
    expect(h.store.getState().exitRequested).toBe(false);
    h.type('/resume');
    h.press('enter');
    await h.settle();
    h.press('enter');
    await h.settle();
    expect(client.requestsOf('thread/resume')).toEqual([]);
    expect(h.cellTexts().at(-1)).toBe('• This is the session you are in.');
  });

  it('a thread that cannot be resumed any more: a message, and the chat stays where it was', async () => {
    const client = savedClient().always('thread/list', () => ({ data: [fakeThread('deleted-1', { preview: 'gone' })], nextCursor: null }));
    const h = await createHarness({ client });
    h.type('/resume');
    h.press('enter');
    await h.settle();
    h.press('enter');
    await h.settle();
    expect(h.store.getState().threadId).toBe('thread-1');
    expect(h.cellTexts().at(-1)).toBe('■ Could not resume the session: no session with id deleted-1');
  });

  it('/fork: the conversation so far in a new session, which the chat moves to; the original is named', async () => {
    const client = savedClient().always('thread/fork', (p) =>
      resumed(fakeThread('fork-2', { turns: SAVED.turns, forkedFromId: p.threadId })),
    );
    const h = await createHarness({ client, session: { kind: 'resume', threadId: 'saved-1' } });
    h.type('/fork');
    h.press('enter');
    await h.settle();
    expect(client.requestsOf('thread/fork')[0]).toEqual({
      threadId: 'saved-1',
      cwd: '/work',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
      tillerTurnsLimit: MAX_RESTORED_TURNS,
    });
    expect(h.store.getState().threadId).toBe('fork-2');
    expect(h.cellTexts().at(-1)).toBe(
      '• Forked this conversation into session fork-2; the original stays as it was (tiller resume saved-1).',
    );
    // The saved thread's usage came with it: the fork goes on from there.
    expect(h.ctrl.exitLine()).toBe(`${resumeCommandLine('fork-2')}\n${SAVED_USAGE_LINE}`);
  });
});

describe('the exit line', () => {
  it('names the thread once it has a turn', async () => {
    const h = await createHarness();
    expect(h.ctrl.exitLine()).toBeNull();
    await send(h, 'hello', 'thread-1', 'turn-1');
    expect(h.ctrl.exitLine()).toBe('To continue this session, run tiller resume thread-1');
    const r = await createHarness({ client: savedClient(), session: { kind: 'resume', threadId: 'saved-1' } });
    expect(r.ctrl.exitLine()).toBe(`${resumeCommandLine('saved-1')}\n${SAVED_USAGE_LINE}`);
  });
});

describe('Esc-Esc backtrack', () => {
  it('Esc on an empty composer primes with a hint; any other key unprimes; nothing to go back to: nothing', async () => {
    const h = await createHarness();
    h.press('escape');
    expect(h.store.getState().backtrack).toEqual({ phase: 'idle' });
    await send(h, 'one', 'thread-1', 'turn-1');
    h.press('escape');
    expect(h.store.getState().backtrack).toEqual({ phase: 'primed' });
    expect(BACKTRACK_HINT).toBe('esc again to edit previous message');
    h.type('x');
    expect(h.store.getState().backtrack).toEqual({ phase: 'idle' });
    expect(h.composerText()).toBe('x');
    // Not with a draft, and not while a turn runs.
    h.press('escape');
    expect(h.store.getState().backtrack).toEqual({ phase: 'idle' });
  });

  it('Esc Esc highlights the last prompt in the pager, Esc steps older, Enter forks before it and puts it back', async () => {
    const h = await createHarness();
    await send(h, 'one', 'thread-1', 'turn-1');
    await send(h, 'two', 'thread-1', 'turn-2');
    await send(h, 'three', 'thread-1', 'turn-3');
    const promptId = (t: string) => h.store.getState().cells.find((c) => c.kind === 'user' && c.text === t)!.id;
    h.press('escape');
    h.press('escape');
    expect(h.store.getState().backtrack).toEqual({ phase: 'selecting', cellId: promptId('three') });
    expect(h.store.getState().pager).toEqual({ top: null, highlight: promptId('three') });
    h.press('escape');
    expect(h.store.getState().pager?.highlight).toBe(promptId('two'));
    h.press('left');
    h.press('right');
    expect(h.store.getState().pager?.highlight).toBe(promptId('two'));
    h.client.always('thread/fork', () => resumed(fakeThread('fork-b', { turns: [recorded('turn-1', 'one', '')] })));
    const generation = h.store.getState().transcriptGeneration;
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/fork').at(-1)).toEqual({
      threadId: 'thread-1',
      lastTurnId: 'turn-1',
      cwd: '/work',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
      tillerTurnsLimit: MAX_RESTORED_TURNS,
    });
    const s = h.store.getState();
    expect([s.pager, s.backtrack, s.threadId, s.transcriptGeneration]).toEqual([null, { phase: 'idle' }, 'fork-b', generation + 1]);
    expect(h.cellTexts()).toEqual([
      '› one',
      '• Editing an earlier message in a new session; the conversation as it was stays in thread-1 (tiller resume thread-1).',
    ]);
    expect(h.composerText()).toBe('two');
    h.type(' edited');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ threadId: 'fork-b', input: [text('two edited')] });
  });

  it('works from Vim mode too; Ctrl+T closing the pager ends the selection', async () => {
    const h = await createHarness({ vimEnabled: true });
    await send(h, 'one', 'thread-1', 'turn-1');
    h.type('i');
    // Leaving Insert mode is the composer's Esc, not the backtrack's.
    h.press('escape');
    expect([h.store.getState().composer.vim.mode, h.store.getState().backtrack]).toEqual(['normal', { phase: 'idle' }]);
    h.press('escape');
    expect(h.store.getState().backtrack).toEqual({ phase: 'primed' });
    h.press('escape');
    expect(h.store.getState().backtrack.phase).toBe('selecting');
    // The pager closes itself on Ctrl+T (main.ts gives it the key first).
    h.store.setState({ pager: null });
    h.type('i');
    expect([h.store.getState().backtrack, h.composerText()]).toEqual([{ phase: 'idle' }, '']);
    expect(h.store.getState().composer.vim.mode).toBe('insert');
  });

  it('q leaves the selection and nothing changes', async () => {
    const h = await createHarness();
    await send(h, 'one', 'thread-1', 'turn-1');
    h.press('escape');
    h.press('escape');
    h.type('q');
    expect([h.store.getState().pager, h.store.getState().backtrack, h.composerText()]).toEqual([null, { phase: 'idle' }, '']);
    expect(h.client.requestsOf('thread/fork')).toEqual([]);
  });

  it('the first prompt: a fresh thread with no turns', async () => {
    const h = await createHarness();
    await send(h, 'one', 'thread-1', 'turn-1');
    await send(h, 'two', 'thread-1', 'turn-2');
    h.client.always('thread/start', () => ({
      thread: fakeThread('fresh-1'),
      model: 'fake-model',
      modelProvider: 'fake',
      cwd: '/work',
      approvalPolicy: 'on-request',
      approvalsReviewer: 'user',
      sandbox: { type: 'workspaceWrite' },
      reasoningEffort: null,
    }));
    h.press('escape');
    h.press('escape');
    h.press('escape');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/fork')).toEqual([]);
    expect(h.store.getState().threadId).toBe('fresh-1');
    expect(h.cellTexts()).toEqual([
      '• Editing an earlier message in a new session; the conversation as it was stays in thread-1 (tiller resume thread-1).',
    ]);
    expect(h.composerText()).toBe('one');
    expect(h.ctrl.exitLine()).toBeNull();
  });

  it('a resumed prompt comes back with its paste as a placeholder and its image attached', async () => {
    const paste = 'z'.repeat(1500);
    const label = '[Pasted Content 1500 chars]';
    const content: V2UserInput[] = [
      { type: 'localImage', path: '/tmp/a.png' },
      {
        type: 'text',
        text: `look ${paste} [Image #1]`,
        text_elements: [
          { byteRange: { start: 5, end: 1505 }, placeholder: label },
          { byteRange: { start: 1506, end: 1516 }, placeholder: '[Image #1]' },
        ],
      },
    ];
    const saved = fakeThread('saved-p', { turns: [recorded('p-t1', 'before', 'ok'), recorded('p-t2', content, 'seen')] });
    const client = new FakeAppServerClient()
      .always('thread/resume', () => resumed(saved))
      .always('thread/fork', () => resumed(fakeThread('fork-p', { turns: [saved.turns[0]!] })));
    const h = await createHarness({
      client,
      session: { kind: 'resume', threadId: 'saved-p' },
      probeAttachment: (path) => (path === '/tmp/a.png' ? PNG_ATTACHMENT : null),
    });
    expect(h.cellTexts()[2]).toBe(`› look ${paste} [Image #1]`);
    expect(h.store.getState().cells[2]).toMatchObject({ attachmentLabels: ['[Image #1] a.png'] });
    h.press('escape');
    h.press('escape');
    h.press('enter');
    await h.settle();
    expect(client.requestsOf('thread/fork')[0]).toMatchObject({ threadId: 'saved-p', lastTurnId: 'p-t1' });
    expect(h.composerText()).toBe(`look ${label} [Image #1]`);
    const composer = h.store.getState().composer;
    expect(composer.pendingPastes).toEqual([{ placeholder: label, text: paste }]);
    expect(composer.attachments.map((a) => a.path)).toEqual(['/tmp/a.png']);
    h.press('enter');
    await h.settle();
    expect(client.requestsOf('turn/start').at(-1)).toMatchObject({
      threadId: 'fork-p',
      input: [
        { type: 'localImage', path: '/tmp/a.png' },
        { type: 'text', text: `look ${paste} [Image #1]` },
      ],
    });
  });

  it('a prompt whose image is gone comes back without it, with a warning', async () => {
    const content: V2UserInput[] = [
      { type: 'localImage', path: '/tmp/gone.png' },
      { type: 'text', text: 'see [Image #1]', text_elements: [{ byteRange: { start: 4, end: 14 }, placeholder: '[Image #1]' }] },
    ];
    const saved = fakeThread('saved-g', { turns: [recorded('g-t1', content, 'seen')] });
    const client = new FakeAppServerClient().always('thread/resume', () => resumed(saved));
    const h = await createHarness({ client, session: { kind: 'resume', threadId: 'saved-g' } });
    h.press('escape');
    h.press('escape');
    h.press('enter');
    await h.settle();
    expect(h.composerText()).toBe('see ');
    expect(h.cellTexts().at(-1)).toBe('⚠ Not put back (no longer there): /tmp/gone.png');
  });
});
