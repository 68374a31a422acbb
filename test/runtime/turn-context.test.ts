/**
 * The context a model is given, in Codex's places (CODEX-REFERENCE §9): the base brief as the first
 * developer message (no `instructions` field), AGENTS.md as a user message, then per turn the
 * `<permissions instructions>` developer message and the `<environment_context>` user message, sent
 * again only when they change (cwd, policy, date) and a `<model_switch>` when the model does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseBrief } from '../../src/runtime/context/base-brief.js';
import { environmentContextText, permissionsText, writableRoots } from '../../src/runtime/context/environment-context.js';
import { resolveSandbox } from '../../src/runtime/sandbox/sandbox.js';
import { modelFamily } from '../../src/runtime/tools/model-family.js';
import { type Harness, helloCompactNext, startHarness, tempDir, text } from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Item = { type: string; role?: string; content?: Array<{ text?: string }> };
const texts = (body: { input: Item[] }): Array<[string | undefined, string]> =>
  body.input.filter((i) => i.type === 'message').map((i) => [i.role, i.content?.[0]?.text ?? '']);
const opening = (text: string): string => text.split('\n')[0]!;

describe('the context messages', () => {
  it('first request: brief (developer), AGENTS.md (user), permissions (developer), environment (user), the prompt', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'AGENTS.md'), 'Be terse.\n');
    h = await startHarness({ cwd, config: { model: 'gpt-5.5' } });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hello')] });
    await h.log.waitFor('turn/completed');
    const body = h.fake.requests[0]!.body;
    expect(body.instructions).toBeUndefined();
    const messages = texts(body);
    expect(messages.map(([role, t]) => [role, opening(t)])).toEqual([
      ['developer', opening(baseBrief(modelFamily('gpt-5.5')))],
      ['user', `# AGENTS.md instructions for ${cwd}`],
      ['developer', '<permissions instructions>'],
      ['user', '<environment_context>'],
      ['user', 'hello'],
    ]);
    expect(messages[0]![1]).toContain('apply_patch');
    const environment = messages[3]![1];
    expect(environment).toContain(`<cwd>${cwd}</cwd>`);
    expect(environment).toMatch(/<current_date>\d{4}-\d{2}-\d{2}<\/current_date>/);
    expect(environment).toMatch(/<timezone>[^<]+<\/timezone>/);
    expect(environment).toMatch(/<shell>[^<]+<\/shell>/);
  });

  it('a second turn with the same settings adds no context; a new cwd, policy or model does', async () => {
    h = await startHarness({ config: { model: 'gpt-5.5' } });
    const threadId = h.threadId;
    const turn = async (params: Record<string, unknown>, count: number): Promise<Array<[string | undefined, string]>> => {
      await h!.server.request('turn/start', { threadId, input: [text(`turn ${count}`)], ...params });
      await h!.log.waitFor('turn/completed', () => h!.log.of('turn/completed').length >= count);
      return texts(h!.fake.requests.at(-1)!.body);
    };
    const first = await turn({}, 1);
    const second = await turn({}, 2);
    expect(second.filter(([, t]) => t.startsWith('<environment_context>'))).toHaveLength(1);
    expect(second.filter(([, t]) => t.startsWith('<permissions instructions>'))).toHaveLength(1);
    expect(second.length).toBe(first.length + 2);

    const elsewhere = tempDir();
    mkdirSync(elsewhere, { recursive: true });
    const third = await turn({ cwd: elsewhere, approvalPolicy: 'untrusted' }, 3);
    const environments = third.filter(([, t]) => t.startsWith('<environment_context>'));
    expect(environments).toHaveLength(2);
    expect(environments[1]![1]).toContain(`<cwd>${elsewhere}</cwd>`);
    const permissions = third.filter(([, t]) => t.startsWith('<permissions instructions>'));
    expect(permissions).toHaveLength(2);
    expect(permissions[1]![1]).toContain('`approval_policy` is `untrusted`');

    const fourth = await turn({ model: 'gpt-5.1-codex' }, 4);
    const switched = fourth.filter(([, t]) => t.startsWith('<model_switch>'));
    expect(switched).toHaveLength(1);
    expect(switched[0]![1]).toContain('gpt-5.5');
    expect(switched[0]![1]).toContain('gpt-5.1-codex');
  });

  it('after /compact dropped them, the next turn sends the context again', async () => {
    h = await startHarness();
    const openings = texts((await helloCompactNext(h)).body).map(([, t]) => opening(t));
    expect(openings.filter((t) => t === '<environment_context>')).toHaveLength(1);
    expect(openings.slice(-3)).toEqual(['<permissions instructions>', '<environment_context>', 'next']);
  });
});

describe('the texts', () => {
  const facts = { cwd: '/w', shell: 'zsh', currentDate: '2026-12-03', timezone: 'Europe/Paris', approvalPolicy: 'on-request' as const };

  it('environment: the fields Codex names, the sandbox mode, network and writable roots', () => {
    const sandbox = resolveSandbox({ type: 'workspaceWrite', writableRoots: ['/extra'] });
    expect(environmentContextText({ ...facts, sandbox }, '/tmp')).toBe(
      [
        '<environment_context>',
        '  <cwd>/w</cwd>',
        '  <shell>zsh</shell>',
        '  <current_date>2026-12-03</current_date>',
        '  <timezone>Europe/Paris</timezone>',
        '  <approval_policy>on-request</approval_policy>',
        '  <sandbox_mode>workspace-write</sandbox_mode>',
        '  <network_access>restricted</network_access>',
        '  <writable_roots>',
        '    <root>/w</root>',
        '    <root>/extra</root>',
        '    <root>/tmp</root>',
        '  </writable_roots>',
        '</environment_context>',
      ].join('\n'),
    );
    expect(writableRoots(resolveSandbox('read-only'), '/w', '/tmp')).toEqual([]);
  });

  it('permissions: what each sandbox mode and approval policy allows, and how to ask', () => {
    expect(permissionsText(resolveSandbox('read-only'), 'on-request')).toContain('`sandbox_mode` is `read-only`');
    expect(permissionsText(resolveSandbox('read-only'), 'on-request')).toContain('"require_escalated"');
    expect(permissionsText(resolveSandbox('workspace-write'), 'never')).toContain('nobody will be asked');
    expect(permissionsText(resolveSandbox('danger-full-access'), 'untrusted')).toContain('`danger-full-access`');
  });

  it('the brief gives apply_patch in the form the family takes', () => {
    expect(baseBrief(modelFamily('gpt-5.5'))).toContain('Its input is a patch');
    expect(baseBrief(modelFamily('llama3'))).toContain('Pass the whole patch as `input`');
  });
});
