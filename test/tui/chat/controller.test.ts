import { FRAME_MS } from '../../../src/tui/chat/turn/delta-buffer.js';
import { describe, expect, it } from 'vitest';
import { JsonRpcError, JSONRPC_INVALID_REQUEST } from '../../../src/protocol/api.js';
import { notSubmittedError } from '../../../src/protocol/turn-errors.js';
import { INTERRUPTED_MESSAGE, STEER_INTERRUPT_MESSAGE } from '../../../src/tui/chat/controller.js';
import { FULL_COMMAND_INTRO } from '../../../src/tui/chat/approvals/approvals.js';
import { PROMPT_GRACE_MS, TYPING_GAP_MS } from '../../../src/tui/chat/approvals/typing-run.js';
import { copiedMessage, NOTHING_TO_COPY_MESSAGE } from '../../../src/tui/chat/commands/local-commands.js';
import { pendingPreviewLines } from '../../../src/tui/chat/pending/pending-view.js';
import { withCells } from '../../../src/tui/store.js';
import { FakeAppServerClient, fakeThread } from './fake-client.js';
import {
  COMMAND_APPROVAL_PARAMS,
  createHarness,
  interruptTurnOne,
  PNG_ATTACHMENT,
  running,
  text,
  userMessage,
  type Harness,
} from './harness.js';

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
  it('Ctrl+C clears the draft with a quit hint, then quits on an empty idle composer', async () => {
    const h = await createHarness();
    h.type('draft');
    h.ctrlKey('c');
    expect(h.composerText()).toBe('');
    expect(h.store.getState().quitHintUntil).toBe(h.clock.now + 1000);
    expect(h.store.getState().exitRequested).toBe(false);
    h.clock.advance(1000);
    expect(h.store.getState().quitHintUntil).toBeNull();
    h.press('up');
    expect(h.composerText()).toBe('draft');
    h.ctrlKey('u');
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

  it('Ctrl+D quits only on an empty composer', async () => {
    const h = await createHarness();
    h.type('ab');
    h.ctrlKey('d');
    expect(h.store.getState().exitRequested).toBe(false);
    h.ctrlKey('u');
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

describe('approvals', () => {
  const params = COMMAND_APPROVAL_PARAMS;

  /** The decision once the server's request is answered; undefined while the prompt waits. */
  function watch(answer: Promise<unknown>): { decision: unknown } {
    const seen: { decision: unknown } = { decision: undefined };
    void answer.then((r) => (seen.decision = (r as { decision: unknown }).decision));
    return seen;
  }

  /** A letter typed on its own after a pause: nothing follows it within the typing gap. */
  function lone(h: Harness, letter: string): void {
    h.clock.advance(TYPING_GAP_MS);
    h.type(letter);
    h.clock.advance(TYPING_GAP_MS);
  }

  it('the modal takes a lone y as approval and ignores Enter; a letter that is no answer goes to the draft', async () => {
    const h = await createHarness();
    await running(h);
    h.type('typed');
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    expect(h.store.getState().modal).toEqual({ kind: 'approval', command: 'rm -rf build', cwd: '/work', reason: null });
    h.clock.advance(TYPING_GAP_MS);
    h.type('x');
    h.press('enter');
    expect(h.composerText()).toBe('typedx');
    expect(h.store.getState().modal).not.toBeNull();
    lone(h, 'y');
    await expect(answer).resolves.toEqual({ decision: 'accept' });
    expect(h.store.getState().modal).toBeNull();
    expect(h.composerText()).toBe('typedx');
  });

  it('"nice work" typed after a pause goes to the draft whole; the prompt stays open', async () => {
    const h = await createHarness();
    await running(h);
    const seen = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('nice work');
    h.clock.advance(TYPING_GAP_MS);
    await h.settle();
    expect(h.composerText()).toBe('nice work');
    expect(h.store.getState().modal).not.toBeNull();
    expect(seen.decision).toBeUndefined();
  });

  it('a lone n after a pause declines, once no letter has followed it within the typing gap', async () => {
    const h = await createHarness();
    await running(h);
    const seen = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('n');
    await h.settle();
    expect(seen.decision).toBeUndefined();
    expect(h.store.getState().modal).not.toBeNull();
    h.clock.advance(TYPING_GAP_MS);
    await h.settle();
    expect(seen.decision).toBe('decline');
    expect(h.store.getState().modal).toBeNull();
    expect(h.composerText()).toBe('');
  });

  it('"yes" typed fast goes to the draft and runs nothing; a lone y approves, Enter after it changing nothing', async () => {
    const h = await createHarness();
    await running(h);
    const seen = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('yes');
    h.clock.advance(TYPING_GAP_MS);
    await h.settle();
    expect(h.composerText()).toBe('yes');
    expect(seen.decision).toBeUndefined();
    h.clock.advance(TYPING_GAP_MS);
    h.type('y');
    h.press('enter');
    await h.settle();
    expect(seen.decision).toBeUndefined();
    h.clock.advance(TYPING_GAP_MS);
    await h.settle();
    expect(seen.decision).toBe('accept');
    expect(h.composerText()).toBe('yes');
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
  });

  it('a word begun after the prompt with a letter that is no answer goes to the draft whole: "what" approves nothing', async () => {
    const h = await createHarness();
    await running(h);
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.clock.advance(2_000);
    h.type('what now');
    expect(h.composerText()).toBe('what now');
    expect(h.store.getState().modal).not.toBeNull();
    lone(h, 'n');
    await expect(answer).resolves.toEqual({ decision: 'decline' });
  });

  it('Esc right after a y declines, the y going into the draft; a y whose turn ends goes into the draft', async () => {
    const h = await createHarness();
    await running(h);
    const esc = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('y');
    h.press('escape');
    await h.settle();
    expect(esc.decision).toBe('decline');
    h.clock.advance(TYPING_GAP_MS);
    expect(h.composerText()).toBe('y');
    const ended = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('a');
    h.completeTurn('turn-1');
    await h.settle();
    expect(ended.decision).toBe('cancel');
    h.clock.advance(TYPING_GAP_MS);
    expect(h.composerText()).toBe('ya');
  });

  it('a paste right after a y makes the y typing: both go into the draft, in order', async () => {
    const h = await createHarness();
    await running(h);
    const seen = watch(h.client.serverRequest('item/commandExecution/requestApproval', params));
    h.clock.advance(2_000);
    h.type('y');
    h.paste('ou there');
    h.clock.advance(TYPING_GAP_MS);
    await h.settle();
    expect(h.composerText()).toBe('you there');
    expect(seen.decision).toBeUndefined();
  });

  it('a command too long for the prompt is printed in full above it first; a short one is not', async () => {
    const h = await createHarness();
    await running(h);
    const script = ["cat > setup.sh <<'EOF'", ...Array.from({ length: 30 }, (_, i) => `echo step ${i + 1}`), 'EOF'].join('\n');
    const cellsBefore = h.store.getState().cells.length;
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', { ...params, command: script });
    const added = h.store.getState().cells.slice(cellsBefore);
    expect(added).toEqual([expect.objectContaining({ kind: 'info', text: `${FULL_COMMAND_INTRO}\n${script}` })]);
    expect(h.store.getState().modal).toMatchObject({ command: script });
    lone(h, 'n');
    await expect(answer).resolves.toEqual({ decision: 'decline' });
    const count = h.store.getState().cells.length;
    const short = h.client.serverRequest('item/commandExecution/requestApproval', params);
    expect(h.store.getState().cells.length).toBe(count);
    lone(h, 'y');
    await expect(short).resolves.toEqual({ decision: 'accept' });
  });

  it('a approves for the session, n and Esc decline, Ctrl+C dismisses as decline', async () => {
    const h = await createHarness();
    await running(h);
    const a = h.client.serverRequest('item/commandExecution/requestApproval', params);
    lone(h, 'a');
    await expect(a).resolves.toEqual({ decision: 'acceptForSession' });
    const n = h.client.serverRequest('item/commandExecution/requestApproval', params);
    lone(h, 'n');
    await expect(n).resolves.toEqual({ decision: 'decline' });
    const esc = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.press('escape');
    await expect(esc).resolves.toEqual({ decision: 'decline' });
    const cc = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.ctrlKey('c');
    await expect(cc).resolves.toEqual({ decision: 'decline' });
    expect(h.store.getState().exitRequested).toBe(false);
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
  });

  it('letters of a word begun before the prompt appeared go into the draft, not to the prompt', async () => {
    const h = await createHarness();
    await running(h);
    h.type('I will say ');
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.type('yes and no');
    h.clock.advance(TYPING_GAP_MS);
    expect(h.composerText()).toBe('I will say yes and no');
    expect(h.store.getState().modal).not.toBeNull();
    h.press('escape');
    await expect(answer).resolves.toEqual({ decision: 'decline' });
  });

  it('a letter right after the prompt appears is taken as typing even after a pause before it', async () => {
    const h = await createHarness();
    await running(h);
    h.clock.advance(5_000);
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.clock.advance(PROMPT_GRACE_MS - 50);
    h.type('y');
    expect(h.composerText()).toBe('y');
    lone(h, 'y');
    await expect(answer).resolves.toEqual({ decision: 'accept' });
    expect(h.composerText()).toBe('y');
  });

  it('a turn that ends cancels its open approval', async () => {
    const h = await createHarness();
    await running(h);
    const pending = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.completeTurn('turn-1');
    await expect(pending).resolves.toEqual({ decision: 'cancel' });
    expect(h.store.getState().modal).toBeNull();
  });
});

describe('streaming', () => {
  it('coalesces 10,000 deltas into a few store updates', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('item/started', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      startedAtMs: 0,
      item: { type: 'agentMessage', id: 'm1', text: '' },
    });
    let updates = 0;
    const unsub = h.store.subscribe(() => updates++);
    for (let i = 0; i < 10_000; i++) {
      h.client.emit('item/agentMessage/delta', { threadId: 'thread-1', turnId: 'turn-1', itemId: 'm1', delta: 'w ' });
      if (i % 1000 === 999) h.clock.advance(FRAME_MS);
    }
    h.clock.advance(FRAME_MS);
    unsub();
    expect(updates).toBeLessThanOrEqual(12);
    expect(h.store.getState().live.agentText).toBe('w '.repeat(10_000));
    h.client.emit('item/completed', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      completedAtMs: 0,
      item: { type: 'agentMessage', id: 'm1', text: 'final' },
    });
    expect(h.store.getState().live.agentText).toBeNull();
    expect(h.cellTexts()).toEqual(['› first', 'agent: final']);
    expect(h.clock.pending).toBe(0);
  });

  it('command output streams live, then becomes a transcript cell', async () => {
    const h = await createHarness();
    await running(h);
    const base = { threadId: 'thread-1', turnId: 'turn-1' };
    const item = {
      type: 'commandExecution' as const,
      id: 'c1',
      command: 'ls',
      commandActions: [],
      cwd: '/work',
      status: 'inProgress' as const,
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    };
    h.client.emit('item/started', { ...base, startedAtMs: 0, item });
    h.client.emit('item/commandExecution/outputDelta', { ...base, itemId: 'c1', delta: 'a\n' });
    h.clock.advance(FRAME_MS);
    expect(h.store.getState().live.command).toEqual({ itemId: 'c1', command: 'ls', output: { head: 'a\n', tail: '', omitted: 0 } });
    h.client.emit('item/completed', {
      ...base,
      completedAtMs: 0,
      item: { ...item, status: 'completed', aggregatedOutput: 'a\nb\n', exitCode: 0 },
    });
    expect(h.store.getState().live.command).toBeNull();
    expect(h.cellTexts().at(-1)).toBe('$ ls [completed] a\nb\n');
  });

  it('an interrupt finishes the partial answer and the running command', async () => {
    const h = await createHarness();
    await running(h);
    const base = { threadId: 'thread-1', turnId: 'turn-1' };
    h.client.emit('item/started', { ...base, startedAtMs: 0, item: { type: 'agentMessage', id: 'm1', text: '' } });
    h.client.emit('item/agentMessage/delta', { ...base, itemId: 'm1', delta: 'partial' });
    h.completeTurn('turn-1', 'interrupted');
    expect(h.cellTexts()).toEqual(['› first', 'agent: partial', `■ ${INTERRUPTED_MESSAGE}`]);
    expect(h.store.getState().live).toEqual({ agentText: null, agentItemId: null, command: null });
  });

  it('a stream retry: the failed attempt’s partial stays shown until the retried stream starts an item, then goes', async () => {
    const h = await createHarness();
    await running(h);
    const base = { threadId: 'thread-1', turnId: 'turn-1' };
    h.client.emit('item/started', { ...base, startedAtMs: 0, item: { type: 'agentMessage', id: 'm1', text: '' } });
    h.client.emit('item/agentMessage/delta', { ...base, itemId: 'm1', delta: 'partial' });
    h.client.emit('error', {
      ...base,
      willRetry: true,
      error: { message: 'Reconnecting... 1/5', codexErrorInfo: null, additionalDetails: 'stream closed' },
    });
    expect(h.store.getState().live.agentText).toBe('partial');
    // The retry answers with a command, not text: the partial must not end up as the answer.
    const item = {
      type: 'commandExecution' as const,
      id: 'c1',
      command: 'ls',
      commandActions: [],
      cwd: '/work',
      status: 'inProgress' as const,
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    };
    h.client.emit('item/started', { ...base, startedAtMs: 0, item });
    expect(h.store.getState().live.agentText).toBeNull();
    h.client.emit('item/completed', {
      ...base,
      completedAtMs: 0,
      item: { ...item, status: 'completed', aggregatedOutput: '', exitCode: 0 },
    });
    h.completeTurn('turn-1', 'completed');
    expect(h.cellTexts().some((t) => t.includes('partial'))).toBe(false);
  });

  it('retryable errors set the status; a failing turn shows its error once, then the queue drains', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('error', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      willRetry: true,
      error: { message: 'Reconnecting... 2/5', codexErrorInfo: null, additionalDetails: 'stream closed' },
    });
    expect(h.store.getState().status).toBe('Reconnecting... 2/5');
    expect(h.store.getState().statusDetail).toBe('stream closed');
    h.client.emit('item/agentMessage/delta', { threadId: 'thread-1', turnId: 'turn-1', itemId: 'm', delta: 'x' });
    expect(h.store.getState().status).toBe('Working');
    h.type('follow');
    h.press('tab');
    h.client.emit('error', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      willRetry: false,
      error: { message: 'exceeded retry limit', codexErrorInfo: null, additionalDetails: null },
    });
    h.completeTurn('turn-1', 'failed', 'exceeded retry limit');
    await h.settle();
    expect(h.cellTexts().filter((t) => t.startsWith('■'))).toEqual(['■ exceeded retry limit']);
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('follow')]);
  });

  it('a failed turn without an error notification shows the turn error', async () => {
    const h = await createHarness();
    await running(h);
    h.completeTurn('turn-1', 'failed', 'unauthorized');
    expect(h.cellTexts().at(-1)).toBe('■ unauthorized');
  });
});

describe('local commands', () => {
  it('`!` alone shows the hint; `!ls` runs locally and sends nothing to the model', async () => {
    const h = await createHarness();
    h.type('!');
    h.press('enter');
    await h.settle();
    expect(h.cellTexts()).toEqual(['• Prefix a command with ! to run it locally (Example: !ls)']);
    h.type('!ls -la');
    h.press('enter');
    await h.settle();
    expect(h.shell).toHaveBeenCalledWith('ls -la');
    expect(h.cellTexts().at(-1)).toBe('$ ls -la [completed] ran ls -la');
    expect(h.client.requestsOf('turn/start')).toEqual([]);
  });

  it('/vim toggles Vim mode with an info cell', async () => {
    const h = await createHarness();
    h.type('/vim');
    h.press('enter');
    expect(h.cellTexts()).toEqual(['• Vim mode enabled.']);
    expect(h.store.getState().composer.vimEnabled).toBe(true);
    h.type('i/vim');
    h.press('enter');
    expect(h.cellTexts()).toEqual(['• Vim mode enabled.', '• Vim mode disabled.']);
    expect(h.store.getState().composer.vimEnabled).toBe(false);
  });

  it('/compact starts a compact turn; /clear clears the screen and starts a new chat; /quit exits', async () => {
    const h = await createHarness();
    h.type('/compact');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ input: [], kind: 'compact' });
    h.startTurn('turn-1');
    h.completeTurn('turn-1');
    h.type('/status');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('Model:     fake-model');
    const threads = h.client.requestsOf('thread/start').length;
    h.type('/clear');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().cells).toEqual([]);
    expect(h.store.getState().transcriptGeneration).toBe(1);
    expect(h.client.requestsOf('thread/start')).toHaveLength(threads + 1);
    h.type('/quit');
    h.press('enter');
    expect(h.store.getState().exitRequested).toBe(true);
  });

  it('/diff runs git diff locally into a cell', async () => {
    const h = await createHarness();
    h.type('/diff');
    h.press('enter');
    await h.settle();
    expect(h.shell).toHaveBeenCalledWith('git diff');
    expect(h.cellTexts()).toEqual(['$ git diff [completed] ran git diff']);
  });
});

describe('more flows', () => {
  it('a message typed before the session is ready is sent once the thread exists', async () => {
    let release: () => void = () => undefined;
    const client = new FakeAppServerClient();
    const h = await createHarness({ client, deferStart: true });
    client.once(
      'thread/start',
      () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              thread: fakeThread(),
              model: 'fake-model',
              modelProvider: 'fake',
              cwd: '/work',
              approvalPolicy: 'on-request',
              approvalsReviewer: 'user',
              sandbox: { type: 'workspaceWrite' },
              reasoningEffort: null,
            });
        }),
    );
    const started = h.ctrl.start();
    await h.settle();
    h.type('early');
    h.press('enter');
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['early']);
    release();
    await started;
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('early')]]);
  });

  it('while a `!` command runs, a message waits for it', async () => {
    const h = await createHarness();
    let finish: () => void = () => undefined;
    h.shell.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve({ output: '', exitCode: 0 }))));
    h.type('!sleep 1');
    h.press('enter');
    h.type('after shell');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['after shell']);
    finish();
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('after shell')]]);
  });

  it('Ctrl+V with no clipboard image shows the error', async () => {
    const h = await createHarness();
    h.ctrlKey('v');
    await h.settle();
    expect(h.cellTexts()).toEqual(['■ Failed to paste image: No image on the clipboard.']);
  });

  it('Ctrl+V attaches the clipboard image', async () => {
    const h = await createHarness({ clipboard: async () => ({ attachment: { ...PNG_ATTACHMENT, path: '/tmp/clip.png' } }) });
    h.ctrlKey('v');
    await h.settle();
    expect(h.composerText()).toBe('[Image #1] ');
    expect(h.store.getState().composer.attachments.map((a) => a.path)).toEqual(['/tmp/clip.png']);
  });

  it('an @ token asks for a file search and the results reach the popup', async () => {
    const h = await createHarness({ searchFiles: async (q) => [`src/${q}.ts`] });
    h.type('see @rout');
    await h.settle();
    const popup = h.store.getState().composer.popup;
    expect(popup?.kind).toBe('file');
    expect(popup?.kind === 'file' ? popup.results : []).toEqual(['src/rout.ts']);
  });

  it('/new starts a new thread and clears the screen; /help lists commands', async () => {
    const h = await createHarness();
    h.type('/help');
    h.press('enter');
    expect(h.cellTexts()[0]).toContain('/compact');
    h.type('/new');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/start')).toHaveLength(2);
    expect(h.cellTexts()).toEqual(['• Started a new conversation.']);
    expect(h.store.getState().transcriptGeneration).toBe(1);
  });

  it('a queued `/compact` is dispatched as a command when dequeued', async () => {
    const h = await createHarness();
    await running(h);
    h.type('/compact');
    h.press('tab');
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['/compact']);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ input: [], kind: 'compact' });
  });

  it('a paste while the approval modal is open goes to the composer', async () => {
    const h = await createHarness();
    await running(h);
    void h.client.serverRequest('item/commandExecution/requestApproval', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      itemId: 'c',
      startedAtMs: 0,
      commandActions: [],
      command: 'ls',
      cwd: '/work',
      reason: null,
    });
    h.paste('kept text');
    expect(h.composerText()).toBe('kept text');
    expect(h.store.getState().modal).not.toBeNull();
  });
});

describe('Esc ownership', () => {
  it('a pending steer does not steal the Vim insert-mode Esc; the next Esc interrupts', async () => {
    const h = await createHarness({ vimEnabled: true });
    h.type('ifirst');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-1');
    h.type('isteer');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().pendingSteers).toHaveLength(1);
    h.type('idraft');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    expect(h.store.getState().composer.vim.mode).toBe('normal');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
  });

  it('Esc closes an open popup instead of interrupting', async () => {
    const h = await createHarness();
    await running(h);
    h.type('/');
    expect(h.store.getState().composer.popup?.kind).toBe('command');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    expect(h.store.getState().composer.popup).toBeNull();
  });
});

describe('skills', () => {
  it('loads skills into the $ popup and sends a skill item for a mention', async () => {
    const h = await createHarness({ loadSkills: async () => [{ name: 'deploy', path: '/s/deploy/SKILL.md', description: 'Ship it' }] });
    h.type('$dep');
    expect(h.store.getState().composer.popup?.kind).toBe('skill');
    h.press('tab');
    h.type('now');
    h.press('enter');
    await h.settle();
    const input = h.client.requestsOf('turn/start')[0]?.input ?? [];
    expect(input.at(-1)).toEqual({ type: 'skill', name: 'deploy', path: '/s/deploy/SKILL.md' });
    expect(input[0]).toMatchObject({ type: 'text' });
    h.type('/skills');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('$deploy');
  });
});

describe('skills added while the session runs', () => {
  it('a `$` re-reads the skills, so the popup offers one added since the start', async () => {
    let skills = [{ name: 'deploy', path: '/s/deploy/SKILL.md' }];
    let loads = 0;
    const h = await createHarness({
      loadSkills: async () => {
        loads += 1;
        return skills;
      },
    });
    await h.settle();
    const afterStart = loads;
    skills = [...skills, { name: 'review', path: '/s/review/SKILL.md' }];
    h.type('$');
    await h.settle();
    expect(loads).toBe(afterStart + 1);
    expect(h.store.getState().composer.popup?.kind).toBe('skill');
    h.type('rev');
    h.press('tab');
    expect(h.store.getState().composer.ta.text).toBe('$review ');
    expect(h.store.getState().composer.mentions.map((m) => m.name)).toEqual(['review']);
  });
});

describe('attachments the runtime could not read', () => {
  it('a warning notification becomes a warning cell; the turn goes on', async () => {
    const h = await createHarness();
    h.paste('/tmp/a.png');
    h.type('look');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-1');
    h.client.emit('warning', { threadId: 'thread-1', turnId: 'turn-1', message: 'Tiller could not read the local image.' });
    expect(h.cellTexts()).toContain('⚠ Tiller could not read the local image.');
    expect(h.store.getState().activeTurn?.id).toBe('turn-1');
  });
});

describe('draining a queued `!` command', () => {
  it('runs it, and sends the next queued message only after it finished', async () => {
    const h = await createHarness();
    let finish: () => void = () => undefined;
    h.shell.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve({ output: 'x', exitCode: 0 }))));
    await running(h);
    h.type('!make');
    h.press('tab');
    h.type('then this');
    h.press('tab');
    expect(h.store.getState().queued.map((q) => [q.text, q.action])).toEqual([
      ['!make', 'runShell'],
      ['then this', 'plain'],
    ]);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.shell).toHaveBeenCalledWith('make');
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    finish();
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('then this')]);
  });
});

describe('composer width', () => {
  it('setComposerWidth makes Up move by wrapped row in the composer', async () => {
    const h = await createHarness();
    h.ctrl.setComposerWidth(5);
    h.type('aaaa bbbb cccc');
    h.press('up');
    expect(h.store.getState().composer.ta.cursor).toBe(9);
    h.press('up');
    expect(h.store.getState().composer.ta.cursor).toBe(4);
  });
});

describe('restoring a draft with a large paste', () => {
  it('an interrupt merges messages into the composer and the paste stays a placeholder with its text', async () => {
    const h = await createHarness();
    await running(h);
    h.type('queued');
    h.press('tab');
    const big = 'p'.repeat(1500);
    h.paste(big);
    expect(h.composerText()).toBe('[Pasted Content 1500 chars]');
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.composerText()).toBe('queued\n[Pasted Content 1500 chars]');
    expect(h.store.getState().composer.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1500 chars]', text: big }]);
    h.press('enter');
    await h.settle();
    const label = { byteRange: { start: 7, end: 1507 }, placeholder: '[Pasted Content 1500 chars]' };
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([{ type: 'text', text: `queued\n${big}`, text_elements: [label] }]);
  });

  it('Alt+Up pops a queued message above a draft whose large pastes stay placeholders', async () => {
    const h = await createHarness();
    await running(h);
    h.type('one');
    h.press('tab');
    const a = 'a'.repeat(1200);
    const b = 'b'.repeat(1200);
    h.paste(a);
    h.paste(b);
    expect(h.composerText()).toBe('[Pasted Content 1200 chars][Pasted Content 1200 chars] #2');
    h.press('up', { alt: true });
    expect(h.composerText()).toBe('one\n[Pasted Content 1200 chars][Pasted Content 1200 chars] #2');
    expect(h.store.getState().queued).toEqual([]);
    // Deleting one placeholder drops its own payload only.
    h.press('backspace');
    expect(h.store.getState().composer.pendingPastes.map((p) => p.text)).toEqual([a]);
    h.completeTurn('turn-1');
    await h.settle();
    h.press('enter');
    await h.settle();
    const label = { byteRange: { start: 4, end: 1204 }, placeholder: '[Pasted Content 1200 chars]' };
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([{ type: 'text', text: `one\n${a}`, text_elements: [label] }]);
  });
});

describe('other notifications', () => {
  it('a blocking hook shows a warning; token usage reaches /status; other threads are ignored', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('hook/completed', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      run: {
        id: 'turn-1:userPromptSubmit',
        eventName: 'userPromptSubmit',
        handlerType: 'command',
        executionMode: 'sync',
        scope: 'turn',
        source: 'user',
        sourcePath: '/home/config.toml',
        displayOrder: 0,
        status: 'blocked',
        statusMessage: 'Blocked by policy.',
        startedAt: 0,
        completedAt: 0,
        durationMs: 0,
        entries: [],
      },
      tillerAdditionalContexts: 0,
    });
    expect(h.cellTexts().at(-1)).toBe('⚠ Blocked by policy.');
    const usage = { inputTokens: 12, cachedInputTokens: 2, outputTokens: 5, reasoningOutputTokens: 1, totalTokens: 17 };
    h.client.emit('thread/tokenUsage/updated', { threadId: 'thread-1', turnId: 'turn-1', tokenUsage: { total: usage, last: usage } });
    h.client.emit('turn/completed', {
      threadId: 'other-thread',
      turn: {
        id: 'turn-1',
        items: [],
        itemsView: 'notLoaded',
        status: 'failed',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
    });
    expect(h.store.getState().activeTurn?.id).toBe('turn-1');
    h.completeTurn('turn-1');
    h.type('/status');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('Tokens:    12 input (2 cached), 5 output (1 reasoning)');
  });
});
