/**
 * /model across providers, through the in-process app server (issue 29): model/list with
 * `tillerProviders` lists every configured provider's models (Ollama's /api/tags too), and a turn/start
 * naming another provider goes to that provider's wire, with the history (but not the other wire's
 * reasoning) carried over.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppServerClient } from '../../../src/protocol/api.js';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import { loadConfig } from '../../../src/runtime/config.js';
import { listedProviders, providerConfig } from '../../../src/runtime/providers-switch.js';
import { ollamaTagsUrl } from '../../../src/runtime/model/wires/chat/models.js';
import { FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { tempDir } from '../support/config.js';
import { NotificationLog, text } from '../support/harness.js';

let chat: FakeChatServer;
let anthropic: FakeAnthropicServer;
let home: string;
let server: AppServerClient | null = null;

beforeEach(async () => {
  chat = await FakeChatServer.start();
  anthropic = await FakeAnthropicServer.start();
  home = tempDir('tiller-switch-home-');
  writeFileSync(
    join(home, 'config.toml'),
    [
      'model_provider = "local"',
      'model = "qwen3:8b"',
      '[model_providers.local]',
      'name = "Local Ollama"',
      `base_url = "${chat.baseUrl}"`,
      'wire_api = "chat"',
      '[model_providers.claude]',
      'name = "Claude"',
      `base_url = "${anthropic.baseUrl}"`,
      'wire_api = "anthropic"',
      'env_key = "TILLER_TEST_ANTHROPIC_KEY"',
      '[model_providers.nokey]',
      'name = "No Key"',
      'base_url = "http://127.0.0.1:9/v1"',
      'env_key = "TILLER_TEST_UNSET_KEY"',
      '',
    ].join('\n'),
  );
  vi.stubEnv('TILLER_HOME', home);
  vi.stubEnv('TILLER_TEST_ANTHROPIC_KEY', 'sk-ant-test');
  vi.stubEnv('TILLER_TEST_UNSET_KEY', '');
  // Local servers that may run on this machine are not asked here.
  vi.stubEnv('OPENAI_API_KEY', '');
});
afterEach(async () => {
  await server?.close();
  server = null;
  vi.unstubAllEnvs();
  await chat.close();
  await anthropic.close();
});

function start(): { server: AppServerClient; log: NotificationLog } {
  const config = { ...loadConfig({}, process.env), checkpoints: false, approvalPolicy: 'never' as const };
  server = createInProcessAppServer({ config, cwd: tempDir(), backoffMs: () => 5 });
  const log = new NotificationLog();
  server.onNotification(log.push);
  return { server, log };
}

describe('providers /model can switch to', () => {
  it('are the session’s first, then the tables, the local servers (quietly) and built-ins whose key is set', () => {
    const config = loadConfig({}, process.env);
    expect(listedProviders(config, { ANTHROPIC_API_KEY: 'k' })).toEqual([
      { id: 'local', quiet: false },
      { id: 'claude', quiet: false },
      { id: 'nokey', quiet: false },
      { id: 'ollama', quiet: true },
      { id: 'lmstudio', quiet: true },
      { id: 'anthropic', quiet: false },
    ]);
  });

  it('another provider’s config changes only the provider’s own fields', () => {
    const base = { ...loadConfig({ model: 'qwen3:8b' }, process.env), approvalPolicy: 'untrusted' as const };
    const claude = providerConfig(base, 'claude', process.env);
    expect(claude.provider).toMatchObject({ id: 'claude', name: 'Claude', wireApi: 'anthropic' });
    expect(claude.baseUrl).toBe(anthropic.baseUrl);
    expect(claude.apiKey).toBe('sk-ant-test');
    expect(claude.approvalPolicy).toBe('untrusted');
    expect(providerConfig(base, 'local')).toBe(base);
    expect(() => providerConfig(base, 'nokey', process.env)).toThrow(/model_providers\.nokey\.env_key: TILLER_TEST_UNSET_KEY is not set/);
  });

  it('Ollama’s /api/tags sits beside the /v1 of the base URL', () => {
    expect(ollamaTagsUrl('http://localhost:11434/v1')).toBe('http://localhost:11434/api/tags');
    expect(ollamaTagsUrl('http://h:1/ollama/v1/?x=1')).toBe('http://h:1/ollama/api/tags');
  });
});

describe('model/list with tillerProviders', () => {
  it('lists each provider’s models with its id and name, from /models or Ollama’s /api/tags, and says which could not list', async () => {
    chat.listModelsAs('ollamaTags', ['qwen3:8b', 'llama3.2:3b']);
    const { server } = start();
    const res = await server.request('model/list', { tillerProviders: true });
    const rows = res.data.map((m) => [m.tillerProvider, m.tillerProviderName, m.model, m.isDefault]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['local', 'Local Ollama', 'llama3.2:3b', false],
        ['local', 'Local Ollama', 'qwen3:8b', true],
        ['claude', 'Claude', expect.any(String), false],
      ]),
    );
    expect(rows[0]![0]).toBe('local');
    expect(res.note).toContain('model_providers.nokey.env_key: TILLER_TEST_UNSET_KEY is not set; export TILLER_TEST_UNSET_KEY=');
  });
});

describe('turn/start with tillerModelProvider', () => {
  it('sends the turn to the other provider’s wire with the conversation, and back', async () => {
    const { server, log } = start();
    const { thread } = await server.request('thread/start', {});
    const turn = async (prompt: string, extra: Record<string, unknown> = {}): Promise<void> => {
      const started = await server.request('turn/start', { threadId: thread.id, input: [text(prompt)], ...extra });
      const done = await log.waitFor('turn/completed', (n) => n.turn.id === started.turn.id);
      expect(done.turn.status).toBe('completed');
    };
    chat.enqueue({ reasoning: ['Qwen is thinking.'], text: 'Qwen answered.' });
    await turn('first on ollama');
    anthropic.enqueue({ text: 'Claude answered.' });
    await turn('then on claude', { model: 'claude-sonnet-4-5', tillerModelProvider: 'claude' });
    const [toClaude] = await anthropic.waitForRequests(1);
    expect(toClaude!.headers['x-api-key']).toBe('sk-ant-test');
    expect(toClaude!.body.model).toBe('claude-sonnet-4-5');
    const sent = JSON.stringify(toClaude!.body.messages);
    expect(sent).toContain('Qwen answered.');
    expect(sent).toContain('then on claude');
    expect(sent).not.toContain('Qwen is thinking.');
    expect(chat.requests).toHaveLength(1);

    chat.enqueue({ text: 'Back on Qwen.' });
    await turn('back on ollama', { model: 'qwen3:8b', tillerModelProvider: 'local' });
    expect(chat.requests).toHaveLength(2);
    const back = JSON.stringify(chat.requests[1]!.body.messages);
    expect(back).toContain('Claude answered.');
    expect(back).toContain('"reasoning_content":"Qwen is thinking."');
  });

  it('refuses a provider whose key is not set, naming the key, and the thread stays where it was', async () => {
    const { server } = start();
    const { thread } = await server.request('thread/start', {});
    await expect(server.request('turn/start', { threadId: thread.id, input: [text('hi')], tillerModelProvider: 'nokey' })).rejects.toThrow(
      /model_providers\.nokey\.env_key: TILLER_TEST_UNSET_KEY is not set; export TILLER_TEST_UNSET_KEY=/,
    );
    expect(chat.requests).toHaveLength(0);
  });
});
