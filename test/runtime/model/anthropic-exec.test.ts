/**
 * The Anthropic wire end to end: the real `tiller exec --json` against the fake Messages server,
 * chosen by `model_provider` with `wire_api = "anthropic"`: a turn with thinking, a command and an
 * apply_patch in one answer, an attached image (-i), the thinking block and tool results sent back,
 * and a resume on the same wire that sends them again.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { tempDir } from '../support/config.js';
import { childEnv, jsonEvents, spawnTiller } from '../support/spawn.js';

let fake: FakeAnthropicServer;
beforeEach(async () => {
  fake = await FakeAnthropicServer.start();
});
afterEach(async () => {
  await fake.close();
});

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello from claude\n*** End Patch';

function anthropicEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...childEnv(), TILLER_TEST_ANTHROPIC_KEY: 'sk-ant-e2e' };
  writeFileSync(
    join(env.TILLER_HOME!, 'config.toml'),
    `model_provider = "claude"\n[model_providers.claude]\nname = "Claude"\nbase_url = "${fake.baseUrl}"\nwire_api = "anthropic"\nenv_key = "TILLER_TEST_ANTHROPIC_KEY"\n`,
  );
  return env;
}

async function exec(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', '-a', 'never', ...args], env, cwd);
  const code = await child.exit;
  return { code, events: jsonEvents(child.lines), stderr: child.stderr() };
}

describe('tiller exec over the Anthropic wire', () => {
  it('thinks by default, runs a command and an apply_patch, carries an image, and resumes on the same wire', async () => {
    const ws = realpathSync(tempDir('tiller-anthropic-ws-'));
    const env = anthropicEnv();
    const image = join(ws, 'red.png');
    writeFileSync(
      image,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toBuffer(),
    );
    const signature = 'EqQBCgIYAhIMx/+e2e=='.repeat(4);
    fake.enqueue(
      {
        thinking: { text: 'Look, then write.', signature },
        toolUses: [
          { name: 'exec_command', input: { cmd: 'echo claude-ran' }, id: 'toolu_cmd' },
          { name: 'apply_patch', input: { input: PATCH }, id: 'toolu_patch' },
        ],
        usage: { input_tokens: 40, output_tokens: 9 },
      },
      { text: 'All done.' },
    );
    const first = await exec(['-m', 'claude-sonnet-4-5', '-i', image, 'make hello.txt'], env, ws);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(readFileSync(join(ws, 'hello.txt'), 'utf8')).toBe('hello from claude\n');
    const completed = first.events.filter((e) => e.type === 'item.completed').map((e) => (e.item as { type: string }).type);
    expect(completed).toEqual(expect.arrayContaining(['command_execution', 'file_change', 'agent_message']));

    const [request1, request2] = fake.requests;
    expect(request1!.path).toMatch(/\/messages$/);
    expect(request1!.headers['x-api-key']).toBe('sk-ant-e2e');
    expect(request1!.headers.authorization).toBeUndefined();
    // The Claude family thinks by default and takes apply_patch as a function of one `input` string.
    expect(request1!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const patchTool = request1!.body.tools.find((t: { name: string }) => t.name === 'apply_patch');
    expect(patchTool.input_schema.required).toEqual(['input']);
    const prompt = request1!.body.messages.at(-1);
    expect(prompt.content.map((b: { type: string }) => b.type)).toContain('image');
    expect(prompt.content.find((b: { type: string }) => b.type === 'image').source).toMatchObject({ type: 'base64' });

    const reply = request2!.body.messages.at(-2);
    expect(reply.content[0]).toEqual({ type: 'thinking', thinking: 'Look, then write.', signature });
    const results = request2!.body.messages.at(-1).content;
    expect(results.map((b: { tool_use_id: string }) => b.tool_use_id)).toEqual(['toolu_cmd', 'toolu_patch']);
    expect(JSON.stringify(results[0].content)).toContain('claude-ran');

    fake.enqueue({ text: 'Still here.' });
    const resumed = await exec(['resume', '--last', 'and again'], env, ws);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const messages = fake.requests[2]!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const sent = JSON.stringify(messages);
    expect(sent).toContain('make hello.txt');
    expect(sent).toContain(signature);
    expect(sent).toContain('"type":"image"');
    expect(messages.at(-1)!.role).toBe('user');
    expect(JSON.stringify(messages.at(-1))).toContain('and again');
  });
});
