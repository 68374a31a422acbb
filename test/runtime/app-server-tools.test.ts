import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandApprovalDecision, ServerRequestMap } from '../../src/protocol/api.js';
import { DECLINED_OUTPUT } from '../../src/runtime/tools/shell/tool.js';
import { type Harness, inputTexts, startHarness, tempDir, text } from './support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

type ApprovalParams = ServerRequestMap['item/commandExecution/requestApproval']['params'];

function answerApprovals(decide: (params: ApprovalParams) => CommandApprovalDecision): ApprovalParams[] {
  const asked: ApprovalParams[] = [];
  h.server.setServerRequestHandler(async (req) => {
    const params = req.params as ApprovalParams;
    asked.push(params);
    return { decision: decide(params) };
  });
  return asked;
}

function callShell(command: string, callId = 'call_1') {
  return { functionCall: { name: 'shell', arguments: { command }, callId } };
}

function outputs(body: { input: Array<{ type: string; output?: string }> }): string[] {
  return body.input.flatMap((i) => (i.type === 'function_call_output' ? [i.output!] : []));
}

describe('shell tool and approvals', () => {
  it('approval granted: the command runs, output streams, the model gets exit code and output', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    const asked = answerApprovals(() => 'accept');
    h.fake.enqueue(callShell('echo hello-tool'), { text: 'done' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ threadId: h.threadId, turnId: done.turn.id, command: 'echo hello-tool' });
    const deltas = h.log
      .of('item/commandExecution/outputDelta')
      .map((d) => d.delta)
      .join('');
    expect(deltas).toContain('hello-tool');
    const item = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item;
    expect(item).toMatchObject({ status: 'completed', exitCode: 0, command: 'echo hello-tool' });
    expect(item.type === 'commandExecution' && item.aggregatedOutput).toContain('hello-tool');
    const [out] = outputs(h.fake.requests[1]!.body);
    expect(out).toContain('exit code: 0');
    expect(out).toContain('hello-tool');
  });

  it('a command printing megabytes streams the kept head and a few latest chunks; the item keeps head and tail', async () => {
    h = await startHarness();
    h.fake.enqueue(callShell("head -c 2000000 /dev/zero | tr '\\0' a; echo; echo the-end"), { text: 'done' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    const deltas = h.log.of('item/commandExecution/outputDelta');
    const streamed = deltas.map((d) => d.delta).join('');
    expect(streamed.startsWith('a'.repeat(10 * 1024))).toBe(true);
    // Past the head only the latest 8 KiB per 50 ms interval: far less than the 2 MB printed.
    expect(streamed.length).toBeLessThan(200 * 1024);
    expect(streamed.endsWith('the-end\n')).toBe(true);
    const item = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item;
    expect(item.type === 'commandExecution' && item.aggregatedOutput).toMatch(/bytes omitted …\]\n[a]*\nthe-end\n$/);
  });

  it('approval declined: status declined and the model is told', async () => {
    const dir = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'on-request' }, cwd: dir });
    answerApprovals(() => 'decline');
    h.fake.enqueue(callShell(`touch ${join(dir, 'made')}`), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    const item = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item;
    expect(item).toMatchObject({ status: 'declined', exitCode: null });
    expect(outputs(h.fake.requests[1]!.body)).toEqual([DECLINED_OUTPUT]);
    expect(await import('node:fs').then((fs) => fs.existsSync(join(dir, 'made')))).toBe(false);
  });

  it('acceptForSession covers the same parsed command only, never a composition that starts like it', async () => {
    const dir = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'on-request' }, cwd: dir });
    const asked = answerApprovals((p) => (p.command.includes('touch') ? 'decline' : 'acceptForSession'));
    h.fake.enqueue(
      callShell('git push --dry-run', 'c1'),
      callShell("git push '--dry-run'", 'c2'),
      callShell('git push --dry-run || touch X', 'c3'),
      callShell('git push --force', 'c4'),
      { text: 'done' },
    );
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(asked.map((a) => a.command)).toEqual(['git push --dry-run', 'git push --dry-run || touch X', 'git push --force']);
    expect(existsSync(join(dir, 'X'))).toBe(false);
  });

  it('untrusted asks only for commands that are not read-only; never asks for none', async () => {
    h = await startHarness({ config: { approvalPolicy: 'untrusted' } });
    const asked = answerApprovals(() => 'accept');
    h.fake.enqueue(callShell('ls', 'c1'), callShell('touch x', 'c2'), { text: 'done' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(asked.map((a) => a.command)).toEqual(['touch x']);
  });

  it('no approval handler: commands needing approval are declined', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    h.fake.enqueue(callShell('echo hi'), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(outputs(h.fake.requests[1]!.body)).toEqual([DECLINED_OUTPUT]);
  });

  it('a non-zero exit is a failed item and the model sees the code', async () => {
    h = await startHarness();
    h.fake.enqueue(callShell('echo oops >&2; exit 3'), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    const item = h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item;
    expect(item).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(outputs(h.fake.requests[1]!.body)[0]).toMatch(/exit code: 3[\s\S]*oops/);
  });
});

describe('hooks, skills and mentions', () => {
  it('a UserPromptSubmit hook that blocks: nothing recorded or sampled, a notification says so', async () => {
    const dir = tempDir();
    const script = join(dir, 'hook.sh');
    writeFileSync(script, `cat > ${join(dir, 'stdin.json')}\necho '{"decision":"block","reason":"no secrets"}'\n`);
    h = await startHarness({ config: { userPromptSubmitHooks: [`sh ${script}`] } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('blocked prompt')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(0);
    expect(h.log.of('hook/completed')).toEqual([
      expect.objectContaining({
        run: expect.objectContaining({ eventName: 'userPromptSubmit', status: 'blocked', statusMessage: 'no secrets' }),
      }),
    ]);
    expect(h.log.of('item/completed').some((n) => n.item.type === 'userMessage')).toBe(false);
    const sent = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'stdin.json'), 'utf8')));
    expect(sent).toMatchObject({
      session_id: h.threadId,
      turn_id: done.turn.id,
      prompt: 'blocked prompt',
      model: 'test-model',
      permission_mode: 'bypassPermissions',
    });
    // The next prompt is sampled without the blocked one.
    h.config.userPromptSubmitHooks.length = 0;
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('fine')] });
    await h.fake.waitForRequests(1);
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual(['fine']);
  });

  it('a blocked steer is not recorded and does not force another request', async () => {
    h = await startHarness({
      config: { userPromptSubmitHooks: [`grep -q secret && echo '{"decision":"block","reason":"secret"}' || true`] },
    });
    h.fake.enqueue({ deltas: ['a ', 'b ', 'c'], delayMs: 60 });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('fine')] });
    await h.log.waitFor('item/agentMessage/delta');
    await h.server.request('turn/steer', { threadId: h.threadId, input: [text('my secret')], expectedTurnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(h.fake.requests).toHaveLength(1);
    expect(h.log.of('hook/completed').map((n) => n.run.status)).toEqual(['completed', 'blocked']);
    expect(h.log.of('item/completed').filter((n) => n.item.type === 'userMessage')).toHaveLength(1);
  });

  it('exit code 2 blocks too', async () => {
    h = await startHarness({ config: { userPromptSubmitHooks: ['echo nope >&2; exit 2'] } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('x')] });
    await h.log.waitFor('turn/completed');
    expect(h.fake.requests).toHaveLength(0);
    expect(h.log.of('hook/completed')[0]).toMatchObject({ run: { status: 'blocked', statusMessage: 'nope' } });
  });

  it('hook additional context becomes developer messages after the prompt', async () => {
    h = await startHarness({ config: { userPromptSubmitHooks: [`echo '{"additionalContext":["ctx one","ctx two"]}'`] } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('prompt')] });
    await h.log.waitFor('turn/completed');
    const input = h.fake.requests[0]!.body.input as Array<{ role: string; content: Array<{ text: string }> }>;
    expect(input.map((m) => [m.role, m.content[0]!.text])).toEqual([
      ['user', 'prompt'],
      ['developer', 'ctx one'],
      ['developer', 'ctx two'],
    ]);
    expect(h.log.of('hook/completed')[0]).toMatchObject({ run: { status: 'completed' }, tillerAdditionalContexts: 2 });
  });

  it('a $skill mention injects SKILL.md as a user-role fragment', async () => {
    h = await startHarness();
    const skillDir = join(h.config.skillsDir, 'deploy');
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(join(skillDir, 'SKILL.md'), 'Deploy with care.');
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('please $deploy now')] });
    await h.log.waitFor('turn/completed');
    const texts = inputTexts(h.fake.requests[0]!.body);
    expect(texts).toEqual([
      'please $deploy now',
      `<skill>\n<name>deploy</name>\n<path>${join(skillDir, 'SKILL.md')}</path>\nDeploy with care.\n</skill>`,
    ]);
    expect(h.log.of('tiller/skillInjected')).toEqual([expect.objectContaining({ name: 'deploy' })]);
  });

  it('mcp:// mentions (structured and in text) are reported as required servers', async () => {
    h = await startHarness();
    await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [text('use mcp://docs please'), { type: 'mention', name: 'Linear', path: 'mcp://linear' }],
    });
    await h.log.waitFor('turn/completed');
    expect(h.log.of('tiller/requiredMcpServers')[0]!.servers).toEqual(['docs', 'linear']);
  });
});

describe('approval cancel and interrupt', () => {
  it('cancel declines the command and interrupts the turn', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    answerApprovals(() => 'cancel');
    h.fake.enqueue(callShell('echo never'), { text: 'not reached' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(1);
    expect(h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item).toMatchObject({ status: 'declined' });
  });

  it('an interrupt while waiting for approval ends the turn', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    let asked!: () => void;
    const askedPromise = new Promise<void>((r) => (asked = r));
    h.server.setServerRequestHandler(() => {
      asked();
      return new Promise(() => undefined);
    });
    h.fake.enqueue(callShell('echo never'));
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await askedPromise;
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    // The command's item ends (declined: it never ran) before the turn does.
    const started = h.log.of('item/started').find((n) => n.item.type === 'commandExecution')!;
    const methods = h.log.all.map((n) => n.method);
    const completedAt = h.log.all.findIndex((n) => n.method === 'item/completed' && n.params.item.id === started.item.id);
    expect(completedAt).toBeGreaterThan(-1);
    expect(completedAt).toBeLessThan(methods.indexOf('turn/completed'));
    expect(h.log.all[completedAt]!.params).toMatchObject({ item: { type: 'commandExecution', status: 'declined', command: 'echo never' } });
  });
});
