/**
 * The chat wire end to end: the real `tiller exec --json` against the fake Chat Completions server,
 * chosen by `model_provider` with `wire_api = "chat"`: a turn with a command and an apply_patch in
 * one answer (parallel calls), reasoning sent back, a resume on the same wire; and `--oss` with no
 * local server running.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { tempDir } from '../support/config.js';
import { childEnv, jsonEvents, spawnTiller } from '../support/spawn.js';

let fake: FakeChatServer;
beforeEach(async () => {
  fake = await FakeChatServer.start();
});
afterEach(async () => {
  await fake.close();
});

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello from chat\n*** End Patch';

function chatEnv(): NodeJS.ProcessEnv {
  const env = childEnv();
  writeFileSync(
    join(env.TILLER_HOME!, 'config.toml'),
    `model_provider = "local"\n[model_providers.local]\nname = "Local"\nbase_url = "${fake.baseUrl}"\nwire_api = "chat"\n`,
  );
  return env;
}

async function exec(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', '-a', 'never', ...args], env, cwd);
  const code = await child.exit;
  return { code, events: jsonEvents(child.lines), stderr: child.stderr() };
}

describe('tiller exec over the chat wire', () => {
  it('runs a command and an apply_patch from one streamed answer, sends reasoning back, and resumes on the same wire', async () => {
    const ws = realpathSync(tempDir('tiller-chat-ws-'));
    const env = chatEnv();
    fake.enqueue(
      {
        reasoning: ['I will look, ', 'then write.'],
        toolCalls: [
          { name: 'exec_command', arguments: { cmd: 'echo chat-ran', yield_time_ms: 30000 }, id: 'call_cmd' },
          { name: 'apply_patch', arguments: { input: PATCH }, id: 'call_patch' },
        ],
        usage: { prompt_tokens: 40, completion_tokens: 9 },
      },
      { text: 'All done.' },
    );
    const first = await exec(['-m', 'gpt-5.5', 'make hello.txt'], env, ws);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(readFileSync(join(ws, 'hello.txt'), 'utf8')).toBe('hello from chat\n');
    const completed = first.events.filter((e) => e.type === 'item.completed').map((e) => (e.item as { type: string }).type);
    expect(completed).toEqual(['command_execution', 'file_change', 'agent_message']);
    expect(first.events.at(-1)).toMatchObject({ type: 'turn.completed', usage: { input_tokens: expect.any(Number) } });

    const [request1, request2] = fake.requests;
    // gpt-5.5 takes apply_patch freeform: on this wire it is a function of one `input` string.
    const patchTool = request1!.body.tools.find((t: { function: { name: string } }) => t.function.name === 'apply_patch');
    expect(patchTool.function.parameters.required).toEqual(['input']);
    expect(request1!.headers.authorization).toBe('Bearer tiller-no-key');
    const assistant = request2!.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant).toMatchObject({
      reasoning_content: 'I will look, then write.',
      tool_calls: [
        { id: 'call_cmd', function: { name: 'exec_command' } },
        { id: 'call_patch', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } },
      ],
    });
    const toolMessages = request2!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['call_cmd', 'call_patch']);
    expect(toolMessages[0].content).toContain('chat-ran');

    fake.enqueue({ text: 'Still here.' });
    const resumed = await exec(['resume', '--last', 'and again'], env, ws);
    expect(resumed.code).toBe(0);
    const messages = fake.requests[2]!.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(
      expect.arrayContaining(['make hello.txt', 'and again']),
    );
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(messages.find((m) => m.role === 'assistant')).toMatchObject({ reasoning_content: 'I will look, then write.' });
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'and again' });
  }, 60_000);

  it('--oss with neither Ollama nor LM Studio running says so, and sends nothing', async () => {
    const env = childEnv();
    const dead = 'http://127.0.0.1:9/v1';
    const { code, stderr } = await exec(
      ['--oss', '-c', `model_providers.ollama.base_url="${dead}"`, '-c', `model_providers.lmstudio.base_url="${dead}"`, 'hi'],
      env,
      realpathSync(tempDir('tiller-oss-')),
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      `tiller exec: --oss: no local model server is running (tried Ollama at ${dead}, LM Studio at ${dead}): start Ollama (\`ollama serve\`) or LM Studio's server (\`lms server start\`)\n`,
    );
  });

  it('--oss picks the local server that answers', async () => {
    const env = childEnv();
    fake.enqueue({ text: 'local answer' });
    const { code, events } = await exec(
      [
        '--oss',
        '-c',
        'model_providers.ollama.base_url="http://127.0.0.1:9/v1"',
        '-c',
        `model_providers.lmstudio.base_url="${fake.baseUrl}"`,
        'hi',
      ],
      env,
      realpathSync(tempDir('tiller-oss-')),
    );
    expect(code).toBe(0);
    expect(events.find((e) => e.type === 'item.completed')).toMatchObject({ item: { type: 'agent_message', text: 'local answer' } });
    expect(fake.requests[0]!.body.model).toBe('openai/gpt-oss-20b');
  });
});
