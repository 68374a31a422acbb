import { describe, expect, it } from 'vitest';
import { JsonRpcError, JSONRPC_INVALID_REQUEST } from '../../../src/protocol/api.js';
import { notSubmittedError } from '../../../src/protocol/turn-errors.js';
import { INTERRUPTED_MESSAGE, STEER_INTERRUPT_MESSAGE } from '../../../src/tui/chat/controller.js';
import { QUIT_CONFIRM_MS } from '../../../src/tui/chat/input/quit-press.js';
import { copiedMessage, NOTHING_TO_COPY_MESSAGE } from '../../../src/tui/chat/commands/local-commands.js';
import { pendingPreviewLines } from '../../../src/tui/chat/pending/pending-view.js';
import { withCells } from '../../../src/tui/store.js';
import { FakeAppServerClient } from './fake-client.js';
import { createHarness, interruptTurnOne, running, text, userMessage } from './harness.js';

describe('ChatController start', () => {
  it('initializes, starts a thread and fills the footer', async () => {
    const h = await createHarness();
    expect(h.client.requests.map((r) => r.method)).toEqual(['initialize', 'thread/start']);
    expect(h.client.requestsOf('thread/start')[0]).toEqual({
      model: 'fake-model',
      cwd: '/work',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    });
    expect(h.store.getState().footer).toEqual({ model: 'fake-model', providerLabel: 'fake', offline: false, cwd: '/work', effort: null });
    expect(h.store.getState().threadId).toBe('thread-1');
    expect(h.history.loadRecent).toHaveBeenCalled();
  });

  it('shows config warnings', async () => {
    const h = await createHarness({ config: { warnings: ['config.toml: bad; using defaults'] } });
    expect(h.cellTexts()).toEqual(['⚠ config.toml: bad; using defaults']);
  });
});

describe('submitting', () => {
  it('Enter when idle starts a turn with the items and shows the prompt in the transcript', async () => {
    const h = await createHarness();
    h.type('hello');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toEqual([
      {
        threadId: 'thread-1',
        input: [text('hello')],
        cwd: '/work',
        approvalPolicy: 'on-request',
        sandboxPolicy: { type: 'workspaceWrite', writableRoots: [], networkAccess: false },
        model: 'fake-model',
      },
    ]);
    expect(h.cellTexts()).toEqual(['› hello']);
    expect(h.composerText()).toBe('');
    expect(h.store.getState().status).toBe('Working');
    expect(h.history.append).toHaveBeenCalledWith('hello');
    h.startTurn('turn-1');
    expect(h.store.getState().activeTurn).toEqual({ id: 'turn-1', startedAt: h.clock.now });
  });

  it('Enter while a turn runs steers it and shows a pending row, not a transcript cell', async () => {
    const h = await createHarness();
    await running(h);
    h.type('also X');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/steer')).toEqual([
      { threadId: 'thread-1', input: [text('also X')], expectedTurnId: 'turn-1', tillerClientId: expect.stringMatching(/^tiller-input-/) },
    ]);
    expect(h.cellTexts()).toEqual(['› first']);
    expect(pendingPreviewLines(h.store.getState(), 120).map((l) => l.text)).toEqual([
      '• Messages to be submitted after next tool call (press esc to interrupt and send immediately)',
      '  ↳ also X · waiting for the next tool call',
      '    ctrl + q edit or retract',
    ]);
  });

  it('a committed userMessage pops only the front pending steer when it matches', async () => {
    const h = await createHarness();
    await running(h);
    h.type('a');
    h.press('enter');
    h.type('b');
    h.press('enter');
    await h.settle();
    userMessage(h, 'turn-1', 'b');
    expect(h.store.getState().pendingSteers.map((p) => p.text)).toEqual(['a', 'b']);
    userMessage(h, 'turn-1', 'a');
    expect(h.store.getState().pendingSteers.map((p) => p.text)).toEqual(['b']);
    expect(h.cellTexts()).toEqual(['› first', '› a']);
    userMessage(h, 'turn-1', 'b');
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› first', '› a', '› b']);
  });

  it('a failed steer adds no pending row, shows the error and restores the draft', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw new JsonRpcError(-32603, 'boom');
    });
    const h = await createHarness({ client });
    await running(h);
    h.type('later');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› first', '■ boom']);
    expect(h.composerText()).toBe('later');
  });

  it('a steer that finds no active turn starts a turn and moves the row into the transcript', async () => {
    const client = new FakeAppServerClient();
    const h = await createHarness({ client });
    await running(h);
    // The turn ended on the server just before the steer reached it (its completion comes first).
    client.once('turn/steer', () => {
      h.completeTurn('turn-1');
      throw notSubmittedError({ type: 'noActiveTurn' });
    });
    h.type('x');
    h.press('enter');
    await h.settle();
    expect(h.client.requests.slice(-2).map((r) => r.method)).toEqual(['turn/steer', 'turn/start']);
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.cellTexts()).toEqual(['› first', '› x']);
  });

  it('a failed turn/start shows the error and restores the draft', async () => {
    const client = new FakeAppServerClient().once('turn/start', () => {
      throw new JsonRpcError(-32602, 'Input exceeds the maximum length of 1048576 characters.');
    });
    const h = await createHarness({ client });
    h.type('hi');
    h.press('enter');
    await h.settle();
    expect(h.cellTexts()).toEqual(['› hi', '■ Input exceeds the maximum length of 1048576 characters.']);
    expect(h.composerText()).toBe('hi');
    expect(h.store.getState().status).toBeNull();
  });

  it('an image-only message is sent when the model takes images; slow preparation shows in the status', async () => {
    const h = await createHarness();
    h.paste('/tmp/a.png');
    h.press('enter');
    await h.settle();
    const input = h.client.requestsOf('turn/start')[0]?.input ?? [];
    expect(input[0]).toEqual({ type: 'localImage', path: '/tmp/a.png' });
    h.startTurn('turn-1');
    expect(h.store.getState().status).toBe('Working');
    h.client.emit('tiller/mediaPreparation', { threadId: 'thread-1', turnId: 'turn-1', state: 'started', count: 1 });
    expect(h.store.getState()).toMatchObject({ status: 'Preparing 1 attachment…', preparingMedia: true });
    h.client.emit('tiller/mediaPreparation', { threadId: 'thread-1', turnId: 'turn-1', state: 'finished', count: 1 });
    expect(h.store.getState()).toMatchObject({ status: 'Working', preparingMedia: false });
  });

  it('images for a model without image input: warning, nothing sent, draft restored', async () => {
    const h = await createHarness({ config: { modelSupportsImages: false } });
    h.paste('/tmp/a.png');
    h.type('describe');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.cellTexts()[0]).toMatch(/^⚠ The current model does not support image input/);
    expect(h.composerText()).toContain('[Image #1]');
    expect(h.composerText()).toContain('describe');
  });
});

describe('queue', () => {
  it('Tab while running queues; the queue drains one per turn after turn/completed', async () => {
    const h = await createHarness();
    await running(h);
    h.type('next');
    h.press('tab');
    h.type('after');
    h.press('tab');
    await h.settle();
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
    expect(pendingPreviewLines(h.store.getState(), 80).map((l) => l.text)).toEqual([
      '• Queued follow-up inputs',
      '  ↳ next',
      '  ↳ after',
      '    alt + ↑ edit last queued message · ctrl + q manage',
    ]);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('first')], [text('next')]]);
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['after']);
    h.startTurn('turn-2');
    h.completeTurn('turn-2');
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('first')], [text('next')], [text('after')]]);
    expect(h.cellTexts()).toEqual(['› first', '› next', '› after']);
  });

  it('Alt+Up and Shift+Left pop the latest queued message back into the composer', async () => {
    const h = await createHarness();
    await running(h);
    h.type('one');
    h.press('tab');
    h.type('two');
    h.press('tab');
    h.press('up', { alt: true });
    expect(h.composerText()).toBe('two');
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['one']);
    h.ctrlKey('u');
    h.press('left', { shift: true });
    expect(h.store.getState().queued).toEqual([]);
    expect(h.composerText()).toContain('one');
  });

  it('a not-steerable turn moves the steer to the rejected section and sends it after the turn', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'cannot steer a compact turn', {
        message: 'cannot steer a compact turn',
        codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'compact' } },
        additionalDetails: null,
      });
    });
    const h = await createHarness({ client });
    await running(h);
    h.type('queued one');
    h.press('tab');
    h.type('x');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(pendingPreviewLines(h.store.getState(), 80).map((l) => l.text)).toEqual([
      '• Messages to be submitted at end of turn',
      '  ↳ x · compact turns cannot be steered: queued',
      '',
      '• Queued follow-up inputs',
      '  ↳ queued one',
      '    alt + ↑ edit last queued message · ctrl + q manage',
    ]);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('x')]);
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['queued one']);
  });
});

describe('interrupts', () => {
  it('Esc with pending steers interrupts, then sends all steers as one new turn and keeps the draft', async () => {
    const h = await createHarness();
    await running(h);
    h.type('also X');
    h.press('enter');
    h.type('also Y');
    h.press('enter');
    await h.settle();
    h.type('draft');
    h.press('escape');
    await interruptTurnOne(h);
    expect(h.cellTexts()).toEqual(['› first', `• ${STEER_INTERRUPT_MESSAGE}`, '› also X\nalso Y']);
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('also X\nalso Y')]);
    expect(h.store.getState().pendingSteers).toEqual([]);
    expect(h.composerText()).toBe('draft');
  });

  it('a plain interrupt restores rejected, pending, queued and the draft into the composer in that order', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'cannot steer a review turn', {
        codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'review' } },
      });
    });
    const h = await createHarness({ client });
    await running(h);
    h.type('rejected');
    h.press('enter');
    await h.settle();
    h.type('steer');
    h.press('enter');
    h.type('queued');
    h.press('tab');
    await h.settle();
    h.type('draft');
    h.ctrlKey('c'); // clears the draft into history
    h.type('draft');
    h.client.emit('turn/completed', {
      threadId: 'thread-1',
      turn: {
        id: 'turn-1',
        items: [],
        itemsView: 'notLoaded',
        status: 'interrupted',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
    });
    await h.settle();
    expect(h.cellTexts().at(-1)).toBe(`■ ${INTERRUPTED_MESSAGE}`);
    expect(h.composerText()).toBe('rejected\nsteer\nqueued\ndraft');
    const s = h.store.getState();
    expect([s.pendingSteers, s.rejectedSteers, s.queued]).toEqual([[], [], []]);
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
  });

  it('Esc without steers interrupts; the interrupted notice appears', async () => {
    const h = await createHarness();
    await running(h);
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
    h.completeTurn('turn-1', 'interrupted');
    expect(h.cellTexts()).toEqual(['› first', `■ ${INTERRUPTED_MESSAGE}`]);
    expect(h.store.getState().activeTurn).toBeNull();
  });

  it('Esc when idle does not interrupt', async () => {
    const h = await createHarness();
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });
});

describe('Ctrl+C and Ctrl+D', () => {
  it('Ctrl+C clears the draft with a quit hint; a second Ctrl+C in time quits', async () => {
    const h = await createHarness();
    h.type('draft');
    h.ctrlKey('c');
    expect(h.composerText()).toBe('');
    expect(h.store.getState().quitHint).toEqual({ key: 'c', until: h.clock.now + QUIT_CONFIRM_MS });
    expect(h.store.getState().exitRequested).toBe(false);
    h.ctrlKey('c');
    expect(h.store.getState().exitRequested).toBe(true);
  });

  it('one Ctrl+C on an empty idle composer only says the next one quits; the hint goes after 1.5 s', async () => {
    const h = await createHarness();
    h.ctrlKey('c');
    expect(h.store.getState().exitRequested).toBe(false);
    expect(h.store.getState().quitHint?.key).toBe('c');
    h.clock.advance(QUIT_CONFIRM_MS);
    expect(h.store.getState().quitHint).toBeNull();
    // Too late: this press arms again instead of quitting.
    h.ctrlKey('c');
    expect(h.store.getState().exitRequested).toBe(false);
    h.ctrlKey('c');
    expect(h.store.getState().exitRequested).toBe(true);
  });

  it('Ctrl+C on an empty composer while a turn runs interrupts instead of quitting', async () => {
    const h = await createHarness();
    await running(h);
    h.ctrlKey('c');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
    expect(h.store.getState().exitRequested).toBe(false);
  });

  it('Ctrl+D quits only on an empty composer, on the second press', async () => {
    const h = await createHarness();
    h.type('ab');
    h.ctrlKey('d');
    expect(h.store.getState().quitHint).toBeNull();
    h.ctrlKey('u');
    h.ctrlKey('d');
    expect(h.store.getState().quitHint?.key).toBe('d');
    expect(h.store.getState().exitRequested).toBe(false);
    // A Ctrl+C does not confirm a Ctrl+D: it arms its own.
    h.ctrlKey('c');
    expect(h.store.getState().quitHint?.key).toBe('c');
    h.ctrlKey('d');
    h.ctrlKey('d');
    expect(h.store.getState().exitRequested).toBe(true);
  });

  it('Ctrl+O copies the last answer as markdown and says how; before any answer it says there is none', async () => {
    const copied: string[] = [];
    const h = await createHarness({ copyToClipboard: async (t) => (copied.push(t), { via: 'wl-copy' }) });
    h.type('keep');
    h.ctrlKey('o');
    expect(h.store.getState().cells.at(-1)).toMatchObject({ kind: 'info', text: NOTHING_TO_COPY_MESSAGE });
    h.store.setState((s) =>
      withCells(s, [
        { kind: 'agent', markdown: 'first' },
        { kind: 'user', text: 'q', textElements: [], attachmentLabels: [], turnId: null },
        { kind: 'agent', markdown: '**last** answer' },
      ]),
    );
    h.ctrlKey('o');
    await h.settle();
    expect(copied).toEqual(['**last** answer']);
    expect(h.store.getState().cells.at(-1)).toMatchObject({ kind: 'info', text: copiedMessage('**last** answer', 'wl-copy') });
    expect(h.composerText()).toBe('keep');
  });

  it('Ctrl+O reports a copy that failed', async () => {
    const h = await createHarness({ copyToClipboard: async () => ({ error: 'too long' }) });
    h.store.setState((s) => withCells(s, [{ kind: 'agent', markdown: 'x' }]));
    h.ctrlKey('o');
    await h.settle();
    expect(h.store.getState().cells.at(-1)).toMatchObject({ kind: 'error', text: 'Could not copy: too long' });
  });

  it('Ctrl+T opens the transcript pager; an approval prompt closes it so the question is seen', async () => {
    const h = await createHarness();
    await running(h);
    h.type('draft');
    h.ctrlKey('t');
    expect(h.store.getState().pager).toEqual({ top: null });
    expect(h.composerText()).toBe('draft');
    void h.client.serverRequest('item/commandExecution/requestApproval', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      itemId: 'c1',
      startedAtMs: 0,
      command: 'ls',
      commandActions: [],
      cwd: '/work',
      reason: null,
    });
    expect(h.store.getState().pager).toBeNull();
    expect(h.store.getState().modal).not.toBeNull();
  });

  it('Ctrl+L clears the screen (a new transcript generation) and keeps the conversation, the turn and the draft', async () => {
    const h = await createHarness();
    await running(h);
    h.type('half a thought');
    const before = h.store.getState();
    h.ctrlKey('l');
    const after = h.store.getState();
    expect(after.transcriptGeneration).toBe(before.transcriptGeneration + 1);
    expect(after.cells).toBe(before.cells);
    expect(after.threadId).toBe(before.threadId);
    expect(after.activeTurn).toEqual(before.activeTurn);
    expect(h.composerText()).toBe('half a thought');
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(0);
  });
});
