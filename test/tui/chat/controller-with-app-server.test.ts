/**
 * The controller against the real in-process app server and the fake Responses server over HTTP:
 * real timers, real streaming, real steer/interrupt semantics.
 */
import { isContextFragment } from '../../../src/protocol/context-fragments.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import type { TillerConfig } from '../../../src/runtime/config.js';
import { ChatController, INTERRUPTED_MESSAGE } from '../../../src/tui/chat/controller.js';
import { TYPING_GAP_MS } from '../../../src/tui/chat/approvals/typing-run.js';
import { initialComposerState } from '../../../src/tui/composer/state.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { createChatStore, type ChatState, type ChatStore } from '../../../src/tui/store.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { probeMedia, TEST_FEEDBACK } from './harness.js';

process.env.SHELL = '/bin/sh';

interface Setup {
  fake: FakeResponsesServer;
  store: ChatStore;
  ctrl: ChatController;
  close(): Promise<void>;
}

let setup: Setup | null = null;
afterEach(async () => {
  await setup?.close();
  setup = null;
});

async function start(approvalPolicy: TillerConfig['approvalPolicy'] = 'never', overrides: Partial<TillerConfig> = {}): Promise<Setup> {
  const fake = await FakeResponsesServer.start();
  const home = mkdtempSync(join(tmpdir(), 'tiller-controller-'));
  const config: TillerConfig = {
    home,
    model: 'test-model',
    baseUrl: fake.baseUrl,
    apiKey: 'dummy',
    approvalPolicy,
    sandboxMode: 'danger-full-access',
    sandboxWritableRoots: [],
    sandboxNetworkAccess: false,
    reasoningEffort: null,
    models: [],
    profile: null,
    mcpServers: {},
    vimModeDefault: false,
    vimEscapeSequence: null,
    modelSupportsImages: true,
    interruptMarker: true,
    requestMaxRetries: 0,
    streamMaxRetries: 0,
    streamIdleTimeoutMs: 5_000,
    userPromptSubmitHooks: [],
    skillsDir: join(home, 'skills'),
    warnings: [],
    ...overrides,
  };
  const client = createInProcessAppServer({ config, cwd: home });
  // Bursts need real gaps between keys; these tests type whole words at once, so no detector.
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia, disablePasteBurst: true }));
  const ctrl = new ChatController({
    client,
    store,
    config,
    cwd: home,
    now: () => Date.now(),
    schedule: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    runLocalShell: async () => ({ output: '', exitCode: 0 }),
    feedback: TEST_FEEDBACK,
    readClipboardImage: async () => ({ error: 'none' }),
    searchFiles: async () => [],
  });
  await ctrl.start();
  setup = {
    fake,
    store,
    ctrl,
    close: async () => {
      ctrl.dispose();
      await client.close();
      await fake.close();
    },
  };
  return setup;
}

function send(s: Setup, text: string, submit: 'enter' | 'tab' = 'enter'): void {
  for (const ch of text) s.ctrl.handleInput(charKey(ch));
  s.ctrl.handleInput(key(submit));
}

async function until(store: ChatStore, pred: (s: ChatState) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred(store.getState())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(store.getState().cells)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const cells = (s: Setup): string[] =>
  s.store
    .getState()
    .cells.map((c) =>
      c.kind === 'user' ? `› ${c.text}` : c.kind === 'agent' ? `agent: ${c.markdown}` : `${c.kind}: ${'text' in c ? c.text : ''}`,
    );

function userTexts(body: { input: Array<{ role?: string; content?: Array<{ type: string; text?: string }> }> }): string[] {
  return body.input
    .filter((i) => i.role === 'user')
    .flatMap((i) => i.content ?? [])
    .filter((c) => c.type === 'input_text' && !isContextFragment(c.text ?? ''))
    .map((c) => c.text ?? '');
}

describe('ChatController with the in-process app server', () => {
  it('Enter → the answer streams into the transcript', async () => {
    const s = await start();
    s.fake.enqueue({ text: 'Hello from the model' });
    send(s, 'hello');
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent') && st.activeTurn === null, 'the answer');
    expect(cells(s)).toEqual(['› hello', 'agent: Hello from the model']);
    expect(userTexts(s.fake.requests[0]!.body)).toEqual(['hello']);
  });

  it('Enter while streaming steers: pending row, a second request with the steer, then the row moves to the transcript', async () => {
    const s = await start();
    s.fake.enqueue({ deltas: ['a ', 'b ', 'c ', 'd ', 'e ', 'f'], delayMs: 40 }, { text: 'second answer' });
    send(s, 'first');
    await until(s.store, (st) => (st.live.agentText ?? '') !== '', 'streaming');
    send(s, 'also X');
    await until(s.store, (st) => st.pendingSteers.length === 1, 'the pending row');
    expect(cells(s)).toEqual(['› first']);
    await until(s.store, (st) => st.activeTurn === null && st.cells.length >= 4, 'the end of the turn');
    expect(s.store.getState().pendingSteers).toEqual([]);
    expect(cells(s)).toEqual(['› first', 'agent: a b c d e f', '› also X', 'agent: second answer']);
    expect(s.fake.requests).toHaveLength(2);
    expect(userTexts(s.fake.requests[1]!.body)).toEqual(['first', 'also X']);
  });

  it('Tab while streaming queues; the queued message starts the next turn', async () => {
    const s = await start();
    s.fake.enqueue({ deltas: ['x ', 'y ', 'z'], delayMs: 40 }, { text: 'queued answer' });
    send(s, 'one');
    await until(s.store, (st) => st.activeTurn !== null, 'the turn');
    send(s, 'two', 'tab');
    expect(s.store.getState().queued.map((q) => q.text)).toEqual(['two']);
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent' && c.markdown === 'queued answer'), 'the queued turn');
    expect(cells(s)).toEqual(['› one', 'agent: x y z', '› two', 'agent: queued answer']);
    expect(s.fake.requests).toHaveLength(2);
  });

  it('Esc interrupts; the notice shows and the next request carries the abort marker', async () => {
    const s = await start();
    s.fake.enqueue({ deltas: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 40 }, { text: 'after' });
    send(s, 'long one');
    await until(s.store, (st) => (st.live.agentText ?? '') !== '', 'streaming');
    s.ctrl.handleInput(key('escape'));
    await until(s.store, (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'error'), 'the interrupt');
    expect(cells(s).at(-1)).toBe(`error: ${INTERRUPTED_MESSAGE}`);
    send(s, 'next');
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent' && c.markdown === 'after'), 'the next answer');
    expect(JSON.stringify(s.fake.requests[1]!.body.input)).toContain('turn_aborted');
  });

  it('Esc right after Enter (before the turn id is known) interrupts a stalled turn; the next message sends a request', async () => {
    // No idle timeout in reach: without the interrupt the stalled turn would hold every later message.
    const s = await start('never', { streamIdleTimeoutMs: 600_000 });
    s.fake.respondWith((req) =>
      userTexts(req.body).at(-1) === 'next' ? { text: 'after' } : { deltas: ['a ', 'b ', 'c'], fault: { kind: 'stall', afterEvents: 2 } },
    );
    send(s, 'hello');
    s.ctrl.handleInput(key('escape'));
    await until(s.store, (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'error'), 'the interrupt');
    expect(cells(s)).toEqual(['› hello', `error: ${INTERRUPTED_MESSAGE}`]);
    send(s, 'next');
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent' && c.markdown === 'after'), 'the next answer');
    const texts = userTexts(s.fake.requests.at(-1)!.body);
    expect([texts[0], texts.at(-1)]).toEqual(['hello', 'next']);
    expect(texts.join('\n')).toContain('turn_aborted');
  });

  it('Esc with a pending steer interrupts and sends the steer as a new turn', async () => {
    const s = await start();
    s.fake.enqueue({ deltas: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 40 }, { text: 'steer answer' });
    send(s, 'long one');
    await until(s.store, (st) => (st.live.agentText ?? '') !== '', 'streaming');
    send(s, 'do this instead');
    await until(s.store, (st) => st.pendingSteers.length === 1, 'the pending row');
    s.ctrl.handleInput(key('escape'));
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent' && c.markdown === 'steer answer'), 'the steer turn');
    const texts = cells(s);
    expect(texts).toContain('info: Model interrupted to submit steer instructions.');
    expect(texts.slice(-2)).toEqual(['› do this instead', 'agent: steer answer']);
    expect(userTexts(s.fake.requests.at(-1)!.body)).toContain('do this instead');
  });

  it("Esc in the same tick as the steer's Enter: the steer reaches the turn first and is sent once, as the next turn", async () => {
    const s = await start();
    s.fake.enqueue(
      { deltas: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 40 },
      { text: 'steer answer' },
      { text: 'marker answer' },
    );
    send(s, 'long one');
    await until(s.store, (st) => (st.live.agentText ?? '') !== '', 'streaming');
    send(s, 'do this instead');
    s.ctrl.handleInput(key('escape'));
    await until(
      s.store,
      (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'agent' && c.markdown === 'steer answer'),
      'the steer turn',
    );
    expect(userTexts(s.fake.requests[1]!.body).filter((t) => t === 'do this instead')).toHaveLength(1);
    expect(cells(s).slice(-3)).toEqual([
      'info: Model interrupted to submit steer instructions.',
      '› do this instead',
      'agent: steer answer',
    ]);
    // A later turn proves the moment passed: nothing went out between the steer's turn and it.
    send(s, 'marker');
    await until(
      s.store,
      (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'agent' && c.markdown === 'marker answer'),
      'the marker turn',
    );
    expect(s.fake.requests).toHaveLength(3);
    expect(userTexts(s.fake.requests[2]!.body).filter((t) => t === 'do this instead')).toHaveLength(1);
  });

  it("Ctrl+C in the same tick as the steer's Enter: the steer comes back into the composer and is not sent", async () => {
    const s = await start();
    s.fake.enqueue({ deltas: Array.from({ length: 50 }, (_, i) => `w${i} `), delayMs: 40 }, { text: 'marker answer' });
    send(s, 'long one');
    await until(s.store, (st) => (st.live.agentText ?? '') !== '', 'streaming');
    send(s, 'do this instead');
    s.ctrl.handleInput(charKey('c', { ctrl: true }));
    await until(s.store, (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'error'), 'the interrupt');
    expect(s.store.getState().composer.ta.text).toContain('do this instead');
    // A later message (the draft stashed meanwhile) proves the moment passed: it is the next request, without the steer.
    s.ctrl.handleInput(charKey('s', { ctrl: true }));
    send(s, 'marker');
    await until(
      s.store,
      (st) => st.activeTurn === null && st.cells.some((c) => c.kind === 'agent' && c.markdown === 'marker answer'),
      'the marker turn',
    );
    expect(s.fake.requests).toHaveLength(2);
    expect(userTexts(s.fake.requests[1]!.body).at(-1)).toBe('marker');
    expect(s.fake.requests.flatMap((r) => userTexts(r.body))).not.toContain('do this instead');
  });

  it('a shell tool call asks for approval in the modal; y runs it into a command cell', async () => {
    const s = await start('on-request');
    s.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo approved-run' } } }, { text: 'done' });
    send(s, 'run it');
    await until(s.store, (st) => st.modal !== null, 'the approval modal');
    expect(s.store.getState().modal).toMatchObject({ kind: 'approval', command: 'echo approved-run' });
    // A person reads the prompt before answering: letters in the same run as the typing go to the draft.
    await new Promise((r) => setTimeout(r, TYPING_GAP_MS));
    s.ctrl.handleInput(charKey('y'));
    await until(s.store, (st) => st.cells.some((c) => c.kind === 'agent' && c.markdown === 'done'), 'the answer after the tool');
    const cmd = s.store.getState().cells.find((c) => c.kind === 'command');
    expect(cmd).toMatchObject({ kind: 'command', command: 'echo approved-run', status: 'completed', exitCode: 0, source: 'model' });
    expect(cmd?.kind === 'command' ? cmd.output : '').toContain('approved-run');
  });
});
