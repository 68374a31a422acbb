import { FRAME_MS } from '../../../src/tui/chat/turn/delta-buffer.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { INTERRUPTED_MESSAGE } from '../../../src/tui/chat/controller.js';
import { FULL_COMMAND_INTRO } from '../../../src/tui/chat/approvals/approvals.js';
import { TYPING_GAP_MS } from '../../../src/tui/chat/approvals/typing-run.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { NO_SESSION_CHANGES } from '../../../src/tui/diff-explorer/explorer.js';
import { COMMAND_APPROVAL_PARAMS, createHarness, running, text, type Harness } from './harness.js';

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

  it('an n 100 ms after the prompt appeared answers it; nothing goes into the draft', async () => {
    const h = await createHarness();
    await running(h);
    h.clock.advance(5_000);
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.clock.advance(100);
    h.input(charKey('n'));
    h.clock.advance(TYPING_GAP_MS);
    await expect(answer).resolves.toEqual({ decision: 'decline' });
    expect(h.composerText()).toBe('');
  });

  it('Backspace takes back a held letter, and edits the draft under the prompt', async () => {
    const h = await createHarness();
    await running(h);
    h.type('abc');
    h.clock.advance(TYPING_GAP_MS);
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', params);
    h.clock.advance(TYPING_GAP_MS);
    h.input(charKey('n'));
    h.press('backspace');
    h.clock.advance(TYPING_GAP_MS);
    expect(h.store.getState().modal).not.toBeNull();
    expect(h.composerText()).toBe('abc');
    h.press('backspace');
    expect(h.composerText()).toBe('ab');
    lone(h, 'y');
    await expect(answer).resolves.toEqual({ decision: 'accept' });
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

  it('/diff opens the explorer on the working tree while the session changed nothing, Tab toggles, and nothing runs that the model hears of', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'tiller-diff-'));
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, 'new.txt'), 'fresh\n');
    const h = await createHarness({ cwd: repo });
    h.type('/diff');
    h.press('enter');
    await vi.waitFor(() => expect(h.store.getState().pager?.explorer?.git.status).toBe('ready'));
    const explorer = h.store.getState().pager!.explorer!;
    expect(explorer.view).toBe('git');
    expect(explorer.session).toEqual({ status: 'message', text: NO_SESSION_CHANGES });
    expect(explorer.git.status === 'ready' && explorer.git.groups[0]!.files.map((f) => [f.path, f.kind, f.added])).toEqual([
      ['new.txt', 'add', 1],
    ]);
    h.press('tab');
    expect(h.store.getState().pager?.explorer?.view).toBe('session');
    h.press('tab');
    expect(h.store.getState().pager?.explorer?.view).toBe('git');
    expect(h.client.requestsOf('tiller/checkpoints/list')).toHaveLength(1);
    expect(h.shell).not.toHaveBeenCalled();
    expect(h.client.requestsOf('tiller/shellCommand')).toHaveLength(0);
    expect(h.cellTexts()).toEqual([]);
    h.press('escape');
    expect(h.store.getState().pager).toBeNull();
  });
});
