import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ServerNotification, ThreadItem, Turn } from '../../src/protocol/api.js';
import { parseExecArgs } from '../../src/runtime/exec/args.js';
import { ExecJsonMapper } from '../../src/runtime/exec/jsonl.js';
import { progressLine } from '../../src/runtime/exec/main.js';

const base = { threadId: 't', turnId: 'u' };
const turn = (status: Turn['status'], error: Turn['error'] = null): Turn => ({
  id: 'u',
  items: [],
  itemsView: 'notLoaded',
  status,
  error,
  startedAt: 0,
  completedAt: 1,
  durationMs: 1,
});
const started = (item: ThreadItem): ServerNotification => ({ method: 'item/started', params: { ...base, item, startedAtMs: 0 } });
const completed = (item: ThreadItem): ServerNotification => ({ method: 'item/completed', params: { ...base, item, completedAtMs: 0 } });
const command = (status: 'inProgress' | 'completed', exitCode: number | null): ThreadItem => ({
  type: 'commandExecution',
  id: 'srv-cmd',
  command: 'ls',
  commandActions: [{ type: 'unknown', command: 'ls' }],
  cwd: '/',
  status,
  aggregatedOutput: status === 'completed' ? 'a\n' : null,
  exitCode,
  durationMs: null,
});

describe('ExecJsonMapper', () => {
  it('maps ids to item_N, filters user messages and deltas, agent messages only on completion', () => {
    const m = new ExecJsonMapper();
    const out = [
      { method: 'thread/started', params: { thread: { id: 'th', model: 'm', modelProvider: 'p', cwd: '/', createdAt: 0 } } },
      { method: 'turn/started', params: { threadId: 't', turn: turn('inProgress') } },
      completed({ type: 'userMessage', id: 'um', content: [] }),
      started({ type: 'agentMessage', id: 'srv-a', text: '' }),
      { method: 'item/agentMessage/delta', params: { ...base, itemId: 'srv-a', delta: 'hi' } },
      started(command('inProgress', null)),
      completed(command('completed', 0)),
      completed({ type: 'agentMessage', id: 'srv-a', text: 'hi' }),
      completed({ type: 'reasoning', id: 'r', summary: ['  '], content: [] }),
      {
        method: 'thread/tokenUsage/updated',
        params: {
          ...base,
          tokenUsage: {
            total: { inputTokens: 5, cachedInputTokens: 1, outputTokens: 2, reasoningOutputTokens: 0 },
            last: { inputTokens: 5, cachedInputTokens: 1, outputTokens: 2, reasoningOutputTokens: 0 },
          },
        },
      },
      { method: 'turn/completed', params: { threadId: 't', turn: turn('completed') } },
    ].flatMap((n) => m.map(n as ServerNotification));
    expect(out).toEqual([
      { type: 'thread.started', thread_id: 'th' },
      { type: 'turn.started' },
      {
        type: 'item.started',
        item: { id: 'item_0', type: 'command_execution', command: 'ls', aggregated_output: '', exit_code: null, status: 'in_progress' },
      },
      {
        type: 'item.completed',
        item: { id: 'item_0', type: 'command_execution', command: 'ls', aggregated_output: 'a\n', exit_code: 0, status: 'completed' },
      },
      { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'hi' } },
      {
        type: 'turn.completed',
        usage: { input_tokens: 5, cached_input_tokens: 1, cache_write_input_tokens: 0, output_tokens: 2, reasoning_output_tokens: 0 },
      },
    ]);
    expect(m.lastAgentMessage).toBe('hi');
  });

  it('errors carry details; failed turns use the turn error; unfinished items are reconciled; interrupted emits nothing', () => {
    const m = new ExecJsonMapper();
    expect(
      m.map({
        method: 'error',
        params: { ...base, willRetry: true, error: { message: 'Reconnecting... 1/5', codexErrorInfo: null, additionalDetails: 'boom' } },
      }),
    ).toEqual([{ type: 'error', message: 'Reconnecting... 1/5 (boom)' }]);
    m.map(started(command('inProgress', null)));
    const failed = m.map({
      method: 'turn/completed',
      params: { threadId: 't', turn: turn('failed', { message: 'bad', codexErrorInfo: 'badRequest', additionalDetails: null }) },
    });
    expect(failed).toEqual([
      { type: 'item.completed', item: expect.objectContaining({ id: 'item_0', status: 'in_progress' }) },
      { type: 'turn.failed', error: { message: 'bad' } },
    ]);
    expect(new ExecJsonMapper().map({ method: 'turn/completed', params: { threadId: 't', turn: turn('interrupted') } })).toEqual([]);
  });
});

describe('exec warnings', () => {
  it('are error items with exec-local ids', () => {
    const m = new ExecJsonMapper();
    expect(m.warning('config.toml: bad')).toEqual({
      type: 'item.completed',
      item: { id: 'item_0', type: 'error', message: 'config.toml: bad' },
    });
  });
});

describe('exec arguments', () => {
  it('parses flags and the prompt', () => {
    expect(parseExecArgs(['--json', '--model', 'x', '--full-auto', '--base-url=http://h/v1', 'do', 'it'])).toEqual({
      json: true,
      model: 'x',
      baseUrl: 'http://h/v1',
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      addDirs: [],
      images: [],
      prompt: 'do it',
    });
    expect(parseExecArgs(['-i', 'a.png', '--image', 'b.png,c.png', '--image=d.png', 'q'])).toMatchObject({
      images: ['a.png', 'b.png', 'c.png', 'd.png'],
      prompt: 'q',
    });
    expect(parseExecArgs(['--image'])).toEqual({ error: 'missing value for --image' });
    expect(parseExecArgs(['-'])).toMatchObject({ prompt: '-' });
    expect(parseExecArgs([])).toMatchObject({ prompt: null });
    expect(parseExecArgs(['--bogus'])).toEqual({ error: "unknown option '--bogus'. Try 'tiller exec --help'." });
    expect(parseExecArgs(['--model'])).toEqual({ error: 'missing value for --model' });
  });

  it('sandbox and approval flags take Codex names and values', () => {
    expect(parseExecArgs(['-s', 'read-only', '-a', 'untrusted', 'q'])).toMatchObject({
      sandboxMode: 'read-only',
      approvalPolicy: 'untrusted',
    });
    expect(parseExecArgs(['--sandbox=danger-full-access', '--ask-for-approval=never', 'q'])).toMatchObject({
      sandboxMode: 'danger-full-access',
      approvalPolicy: 'never',
    });
    expect(parseExecArgs(['--dangerously-bypass-approvals-and-sandbox', 'q'])).toMatchObject({
      sandboxMode: 'danger-full-access',
      approvalPolicy: 'never',
    });
    expect(parseExecArgs(['--add-dir', '/a', '--add-dir=/b', 'q'])).toMatchObject({ addDirs: ['/a', '/b'] });
    expect(parseExecArgs(['--add-dir', 'rel', 'q'])).toMatchObject({ addDirs: [join(process.cwd(), 'rel')] });
    expect(parseExecArgs(['q'])).toMatchObject({ sandboxMode: null, approvalPolicy: null });
    expect(parseExecArgs(['-s', 'everything', 'q'])).toEqual({
      error: '--sandbox takes one of read-only, workspace-write, danger-full-access',
    });
    expect(parseExecArgs(['-a', 'sometimes', 'q'])).toEqual({ error: '--ask-for-approval takes one of untrusted, on-request, never' });
  });

  it('--help and -h ask for the usage, wherever they stand before `--`', () => {
    expect(parseExecArgs(['--help'])).toEqual({ help: true });
    expect(parseExecArgs(['--json', '-h', 'prompt'])).toEqual({ help: true });
    expect(parseExecArgs(['--', '--help'])).toMatchObject({ prompt: '--help' });
  });
});

describe('warning notifications in exec', () => {
  const warning: ServerNotification = { method: 'warning', params: { ...base, message: 'Tiller could not read the local image.' } };

  it('--json: an item.completed error item with the next exec-local id', () => {
    const m = new ExecJsonMapper();
    m.map(completed({ type: 'agentMessage', id: 'a', text: 'x' }));
    expect(m.map(warning)).toEqual([
      { type: 'item.completed', item: { id: 'item_1', type: 'error', message: 'Tiller could not read the local image.' } },
    ]);
  });

  it('text mode: a `warning:` line', () => {
    expect(progressLine(warning)).toBe('warning: Tiller could not read the local image.');
  });
});
