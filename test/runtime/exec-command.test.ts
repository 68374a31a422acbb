import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerNotificationMap } from '../../src/protocol/api.js';
import type { ScriptedResponse } from '../support/fake-responses-server.js';
import { DECLINED_OUTPUT } from '../../src/runtime/commands/command-gate.js';
import { type Harness, startHarness, tempDir, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

type Body = { input: Array<{ type: string; output?: string }> };
const lastOutput = (body: Body): string => body.input.filter((i) => i.type === 'function_call_output').at(-1)?.output ?? '';
const sessionIdIn = (output: string): number => Number(/Process running with session ID (\d+)/.exec(output)?.[1]);

/** Each step answers the next request from the output of the call before it. */
function script(...steps: Array<(previous: string) => ScriptedResponse>): void {
  let n = 0;
  h.fake.respondWith((request) => steps[n++]?.(lastOutput(request.body as Body)) ?? { text: 'done' });
}

const exec = (args: Record<string, unknown>, callId = `c_${Math.random()}`): ScriptedResponse => ({
  functionCall: { name: 'exec_command', arguments: args, callId },
});
const write = (args: Record<string, unknown>): ScriptedResponse => ({ functionCall: { name: 'write_stdin', arguments: args } });
const outputs = (): string[] => h.fake.requests.slice(1).map((r) => lastOutput(r.body as Body));
const commandItems = (): Array<Extract<ServerNotificationMap['item/completed']['item'], { type: 'commandExecution' }>> =>
  h.log.of('item/completed').flatMap((n) => (n.item.type === 'commandExecution' ? [n.item] : []));

async function runTurn(): Promise<void> {
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  await h.log.waitFor('turn/completed', () => true, 30_000);
}

const FORMAT = /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 0\nOriginal token count: \d+\nOutput:\n/;

describe('exec_command approvals', () => {
  it('require_escalated asks with the justification as the reason, then runs outside the sandbox', async () => {
    const ws = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'on-request', sandboxMode: 'read-only' }, cwd: ws });
    const asked: string[] = [];
    h.server.setServerRequestHandler(async (req) => {
      asked.push(String((req.params as { reason?: unknown }).reason));
      return { decision: 'accept' };
    });
    script(() => exec({ cmd: 'touch made', sandbox_permissions: 'require_escalated', justification: 'Create the file made?' }));
    await runTurn();
    expect(asked).toEqual(['Create the file made?']);
    expect(existsSync(join(ws, 'made'))).toBe(true);
    expect(outputs()[0]).toMatch(/Process exited with code 0/);
  });

  it('require_escalated under `never` is refused without asking, and nothing runs', async () => {
    const ws = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'never', sandboxMode: 'read-only' }, cwd: ws });
    script(() => exec({ cmd: 'touch made', sandbox_permissions: 'require_escalated', justification: 'Please' }));
    await runTurn();
    expect(outputs()[0]).toBe(
      'approval policy is never; reject command — you cannot ask for escalated permissions if the approval policy is never',
    );
    expect(existsSync(join(ws, 'made'))).toBe(false);
    expect(commandItems()[0]).toMatchObject({ status: 'declined' });
  });

  it('a declined command is not run and the model is told', async () => {
    const ws = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'untrusted' }, cwd: ws });
    h.server.setServerRequestHandler(async () => ({ decision: 'decline' }));
    script(() => exec({ cmd: 'touch made' }));
    await runTurn();
    expect(outputs()[0]).toBe(DECLINED_OUTPUT);
    expect(existsSync(join(ws, 'made'))).toBe(false);
  });

  it('known-safe commands are read-only, so they run in parallel', async () => {
    h = await startHarness();
    const { execCommandTool } = await import('../../src/runtime/tools/exec-command/tool.js');
    const readOnly = (args: object): Promise<boolean> =>
      Promise.resolve(execCommandTool.readOnly!({ call_id: 'c', name: 'exec_command', arguments: JSON.stringify(args) }, {} as never));
    expect(await readOnly({ cmd: 'ls -la && cat README.md' })).toBe(true);
    expect(await readOnly({ cmd: 'touch x' })).toBe(false);
    expect(await readOnly({ cmd: 'ls', tty: true })).toBe(false);
    expect(await readOnly({ cmd: 'ls', sandbox_permissions: 'require_escalated' })).toBe(false);
  });
});

describe('exec_command', () => {
  it('a short command answers in Codex format, and its item shows the shell line and the exit code', async () => {
    h = await startHarness();
    script(() => exec({ cmd: 'echo hello-exec' }));
    await runTurn();
    const [out] = outputs();
    expect(out).toMatch(FORMAT);
    expect(out!.endsWith('Output:\nhello-exec\n')).toBe(true);
    expect(commandItems()[0]).toMatchObject({ command: "/bin/sh -lc 'echo hello-exec'", status: 'completed', exitCode: 0 });
    const deltas = h.log.of('item/commandExecution/outputDelta').map((d) => d.delta);
    expect(deltas.join('')).toContain('hello-exec');
  });

  it('an interactive read in a pty is answered through write_stdin; the calls make one item', async () => {
    h = await startHarness();
    script(
      () => exec({ cmd: 'printf "name? "; read -r name; echo "hello-$name"', tty: true, yield_time_ms: 500 }),
      (previous) => write({ session_id: sessionIdIn(previous), chars: 'bob\n', yield_time_ms: 3000 }),
    );
    await runTurn();
    const [first, second] = outputs();
    expect(first).toMatch(/\nProcess running with session ID \d+\n/);
    expect(first).toContain('name? ');
    expect(second).toMatch(/\nProcess exited with code 0\n/);
    // With a terminal the input echoes and lines end in \r\n.
    expect(second).toContain('bob\r\nhello-bob\r\n');
    const items = commandItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(items[0]!.aggregatedOutput).toContain('hello-bob');
  });

  it('yield and poll: a command still running is polled with empty chars until it exits', async () => {
    h = await startHarness();
    script(
      () => exec({ cmd: 'echo start; sleep 1; echo end', yield_time_ms: 250 }),
      (previous) => write({ session_id: sessionIdIn(previous), yield_time_ms: 10_000 }),
    );
    await runTurn();
    const [first, second] = outputs();
    expect(first).toMatch(/Process running with session ID \d+\n[^]*Output:\nstart\n$/);
    expect(second).toMatch(/Process exited with code 0\n[^]*Output:\nend\n$/);
    // The poll returned at the exit, not after its 10 s.
    expect(Number(/Wall time: ([\d.]+)/.exec(second!)?.[1])).toBeLessThan(5);
  });

  it('output over max_output_tokens keeps its head and tail with Codex header and marker', async () => {
    h = await startHarness();
    script(() => exec({ cmd: 'seq 1 2000', max_output_tokens: 100 }));
    await runTurn();
    const [out] = outputs();
    expect(out).toContain(
      'Original token count: 2224\nOutput:\nWarning: truncated output (original token count: 2224)\nTotal output lines: 2000\n\n1\n2\n',
    );
    expect(out).toMatch(/…2124 tokens truncated…/);
    expect(out!.endsWith('1999\n2000\n')).toBe(true);
  });

  it('an unknown session id and a write to a finished session are clear errors, and the turn goes on', async () => {
    h = await startHarness();
    script(
      () => write({ session_id: 4242, chars: 'x' }),
      () => exec({ cmd: 'sleep 0.3; echo bye', tty: true, yield_time_ms: 250 }),
      (previous) => write({ session_id: sessionIdIn(previous), chars: '', yield_time_ms: 5000 }),
      () => write({ session_id: sessionIdIn(outputs()[1]!), chars: 'more\n' }),
    );
    await runTurn();
    const out = outputs();
    expect(out[0]).toBe('write_stdin failed: Unknown process id 4242');
    expect(out[2]).toMatch(/Process exited with code 0/);
    expect(out[3]).toBe(`write_stdin failed: Unknown process id ${sessionIdIn(out[1]!)}`);
    expect(h.log.of('turn/completed')[0]!.turn.status).toBe('completed');
  });

  it('writing to a session without a terminal says stdin is closed', async () => {
    h = await startHarness();
    script(
      () => exec({ cmd: 'sleep 2', yield_time_ms: 250 }),
      (previous) => write({ session_id: sessionIdIn(previous), chars: 'x' }),
    );
    await runTurn();
    expect(outputs()[1]).toBe('write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to keep stdin open');
  });

  it('a session survives the end of its turn; write_stdin in the next turn continues it in a new item', async () => {
    h = await startHarness();
    script(
      () => exec({ cmd: 'read -r x; echo got-$x', tty: true, yield_time_ms: 300 }),
      () => ({ text: 'waiting' }),
      () => write({ session_id: sessionIdIn(outputs()[0]!), chars: 'later\n', yield_time_ms: 3000 }),
    );
    await runTurn();
    expect(commandItems()[0]).toMatchObject({ status: 'completed', exitCode: null });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.log.waitFor('turn/completed', (p) => p.turn.id !== h.log.of('turn/completed')[0]!.turn.id, 30_000);
    const last = lastOutput(h.fake.requests.at(-1)!.body as Body);
    expect(last).toContain('got-later');
    expect(commandItems()[1]).toMatchObject({ status: 'completed', exitCode: 0 });
  });

  it('an interrupt ends the running session: its process is killed and its item completes', async () => {
    h = await startHarness();
    const gate = h.fake.gate();
    script(
      () => exec({ cmd: 'echo $$; sleep 30', tty: true, yield_time_ms: 300 }),
      () => ({ text: 'thinking', hold: { gate, afterDeltas: 0 } }),
    );
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.fake.waitForRequests(2);
    const pid = Number(/Output:\n(\d+)/.exec(outputs()[0]!)?.[1]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: h.log.of('turn/started')[0]!.turn.id });
    await h.log.waitFor('turn/completed');
    expect(commandItems()[0]).toMatchObject({ status: 'failed' });
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
    gate.release();
  });
});

describe('exec sessions at quit', () => {
  it('closing the app server ends a session that outlived its turn', async () => {
    h = await startHarness();
    script(() => exec({ cmd: 'echo $$; sleep 30', tty: true, yield_time_ms: 300 }));
    await runTurn();
    const pid = Number(/Output:\n(\d+)/.exec(outputs()[0]!)?.[1]);
    expect(alive(pid)).toBe(true);
    await h.close();
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
