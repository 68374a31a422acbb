/**
 * The turn's sandbox through the whole runtime: thread/start's `sandbox`, turn/start's
 * `sandboxPolicy`, commands confined for real by bubblewrap, and the second prompt that lets a
 * command the sandbox stopped run outside it.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandApprovalDecision, SandboxPolicy, ServerRequestMap } from '../../src/protocol/api.js';
import { SANDBOX_DENIED_NOTE } from '../../src/runtime/sandbox/command-sandbox.js';
import { sandboxAvailability } from '../../src/runtime/sandbox/sandbox.js';
import { type Harness, startHarness, tempDir, text } from './support/harness.js';

const availability = await sandboxAvailability();
const title = availability.available
  ? `the runtime confines commands (${availability.kind})`
  : `SKIPPED, no sandbox here: ${availability.reason}`;

type ApprovalParams = ServerRequestMap['item/commandExecution/requestApproval']['params'];

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

function callShell(command: string, callId: string) {
  return { functionCall: { name: 'shell', arguments: { command }, callId } };
}

function outputs(body: { input: Array<{ type: string; output?: string }> }): string[] {
  return body.input.flatMap((i) => (i.type === 'function_call_output' ? [i.output!] : []));
}

/** Only the workspace is writable: the test's temp dirs are not, so "outside" really is. */
const WORKSPACE_ONLY: SandboxPolicy = { type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true };

describe.skipIf(!availability.available)(title, () => {
  function dirs(): { ws: string; outside: string } {
    const base = realpathSync(tempDir('tiller-sbx-rt-'));
    const ws = join(base, 'ws');
    const outside = join(base, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
    return { ws, outside };
  }

  async function run(
    commands: string[],
    options: {
      policy: 'on-request' | 'never' | 'untrusted';
      sandboxPolicy?: SandboxPolicy;
      threadSandbox?: 'read-only';
      decide?: (p: ApprovalParams) => CommandApprovalDecision;
    },
  ): Promise<{ asked: ApprovalParams[]; ws: string; outside: string; harness: Harness }> {
    const { ws, outside } = dirs();
    const harness = await startHarness({ config: { approvalPolicy: options.policy, sandboxMode: 'workspace-write' }, cwd: ws });
    h = harness;
    const asked: ApprovalParams[] = [];
    harness.server.setServerRequestHandler(async (req) => {
      const params = req.params as ApprovalParams;
      asked.push(params);
      return { decision: options.decide?.(params) ?? 'decline' };
    });
    let threadId = harness.threadId;
    if (options.threadSandbox) threadId = (await harness.server.request('thread/start', { sandbox: options.threadSandbox })).thread.id;
    harness.fake.enqueue(...commands.map((c, i) => callShell(c.replaceAll('$OUT', outside), `c${i}`)), { text: 'done' });
    await harness.server.request('turn/start', {
      threadId,
      input: [text('go')],
      ...(options.sandboxPolicy ? { sandboxPolicy: options.sandboxPolicy } : {}),
    });
    await harness.log.waitFor('turn/completed');
    return { asked, ws, outside, harness };
  }

  it('on-request in workspace-write: a command writing the workspace runs without asking', async () => {
    const { asked, ws } = await run(['touch inside'], { policy: 'on-request', sandboxPolicy: WORKSPACE_ONLY });
    expect(asked).toEqual([]);
    expect(existsSync(join(ws, 'inside'))).toBe(true);
  });

  it('a write outside is stopped; the prompt offers running it outside the sandbox, and a yes does', async () => {
    const { asked, outside, harness } = await run(['touch $OUT/escaped'], {
      policy: 'on-request',
      sandboxPolicy: WORKSPACE_ONLY,
      decide: () => 'accept',
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.reason).toMatch(
      /^The sandbox blocked this command \(.*Read-only file system.*\)\. Run it again without the sandbox\?$/,
    );
    expect(existsSync(join(outside, 'escaped'))).toBe(true);
    const [out] = outputs(harness.fake.requests[1]!.body);
    expect(out).toContain('exit code: 0');
    expect(out).not.toContain(SANDBOX_DENIED_NOTE);
  });

  it('declined: nothing is written and the model is told the sandbox denied it', async () => {
    const { asked, outside, harness } = await run(['touch $OUT/escaped'], { policy: 'on-request', sandboxPolicy: WORKSPACE_ONLY });
    expect(asked).toHaveLength(1);
    expect(existsSync(join(outside, 'escaped'))).toBe(false);
    expect(outputs(harness.fake.requests[1]!.body)[0]).toContain(SANDBOX_DENIED_NOTE);
  });

  it('never: nobody is asked, the sandbox still holds, and the model hears why', async () => {
    const { asked, outside, harness } = await run(['touch $OUT/escaped'], { policy: 'never', sandboxPolicy: WORKSPACE_ONLY });
    expect(asked).toEqual([]);
    expect(existsSync(join(outside, 'escaped'))).toBe(false);
    expect(outputs(harness.fake.requests[1]!.body)[0]).toContain(SANDBOX_DENIED_NOTE);
  });

  it('approved in untrusted still runs inside the sandbox', async () => {
    const { asked, outside } = await run(['touch $OUT/escaped'], {
      policy: 'untrusted',
      sandboxPolicy: WORKSPACE_ONLY,
      decide: (p) => (p.reason === null ? 'accept' : 'decline'),
    });
    expect(asked.map((a) => a.reason === null)).toEqual([true, false]);
    expect(existsSync(join(outside, 'escaped'))).toBe(false);
  });

  it('"for the session" on the sandbox prompt lets the same command out later without asking, and only that command', async () => {
    const { asked, outside } = await run(['touch $OUT/a', 'touch $OUT/a', 'touch $OUT/b'], {
      policy: 'on-request',
      sandboxPolicy: WORKSPACE_ONLY,
      decide: (p) => (p.command.endsWith('/a') ? 'acceptForSession' : 'decline'),
    });
    expect(asked.map((a) => a.command)).toEqual([`touch ${outside}/a`, `touch ${outside}/b`]);
    expect(existsSync(join(outside, 'a'))).toBe(true);
    expect(existsSync(join(outside, 'b'))).toBe(false);
  });

  it("thread/start's sandbox read-only: even the workspace is not written", async () => {
    const { ws } = await run(['touch inside'], { policy: 'never', threadSandbox: 'read-only' });
    expect(existsSync(join(ws, 'inside'))).toBe(false);
  });

  it("turn/start's sandboxPolicy readOnly beats the thread's workspace-write", async () => {
    const { ws } = await run(['touch inside'], { policy: 'never', sandboxPolicy: { type: 'readOnly' } });
    expect(existsSync(join(ws, 'inside'))).toBe(false);
  });

  it('the workspace .git stays read-only', async () => {
    const { ws } = dirs();
    mkdirSync(join(ws, '.git'));
    h = await startHarness({ config: { approvalPolicy: 'never', sandboxMode: 'workspace-write' }, cwd: ws });
    h.fake.enqueue(callShell('touch .git/hook', 'c0'), { text: 'done' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(existsSync(join(ws, '.git', 'hook'))).toBe(false);
  });
});
