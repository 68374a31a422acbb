import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ConfigOverrides } from '../../src/runtime/config.js';

function load(toml: string | null, env: NodeJS.ProcessEnv = {}, overrides: ConfigOverrides = {}) {
  const home = mkdtempSync(join(tmpdir(), 'tiller-providers-'));
  if (toml !== null) writeFileSync(join(home, 'config.toml'), toml);
  return loadConfig(overrides, { TILLER_HOME: home, ...env });
}

function loadError(toml: string | null, env: NodeJS.ProcessEnv = {}, overrides: ConfigOverrides = {}): string {
  try {
    load(toml, env, overrides);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.replace(/^.*config\.toml(:\d+)?: /, '');
  }
  throw new Error('loadConfig did not throw');
}

describe('built-in providers', () => {
  it.each([
    ['ollama', 'http://localhost:11434/v1', 'chat', {}, 'gpt-oss:20b'],
    ['lmstudio', 'http://localhost:1234/v1', 'chat', {}, 'openai/gpt-oss-20b'],
    ['openrouter', 'https://openrouter.ai/api/v1', 'chat', { OPENROUTER_API_KEY: 'or-k' }, 'openai/gpt-oss-120b'],
    ['deepseek', 'https://api.deepseek.com/v1', 'chat', { DEEPSEEK_API_KEY: 'ds-k' }, 'deepseek-chat'],
    ['anthropic', 'https://api.anthropic.com/v1', 'anthropic', { ANTHROPIC_API_KEY: 'an-k' }, 'claude-sonnet-4-5'],
  ])('model_provider = "%s" needs no table: %s over the %s wire', (id, baseUrl, wireApi, env, model) => {
    const config = load(`model_provider = "${id}"\n`, env);
    expect(config).toMatchObject({ baseUrl, model, provider: { id, wireApi } });
    expect(config.apiKey).toBe(Object.values(env)[0] ?? null);
  });

  it('openai stays the Responses wire with OPENAI_API_KEY and OPENAI_BASE_URL', () => {
    const config = load(null, { OPENAI_API_KEY: 'sk', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(config).toMatchObject({ apiKey: 'sk', baseUrl: 'http://127.0.0.1:9/v1', provider: { id: 'openai', wireApi: 'responses' } });
  });

  it("an explicit base_url wins over OPENAI_BASE_URL; a table of a built-in's id changes only what it sets", () => {
    const config = load('model_provider = "ollama"\n[model_providers.ollama]\nbase_url = "http://127.0.0.1:7/v1"\n', {
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:7/v1', provider: { id: 'ollama', name: 'Ollama', wireApi: 'chat' } });
    expect(load('model_provider = "ollama"\n', { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).baseUrl).toBe('http://localhost:11434/v1');
  });

  it('-c model_provider= and ConfigOverrides.modelProvider (--oss) beat the file and its profile', () => {
    const toml = 'profile = "p"\n[profiles.p]\nmodel_provider = "deepseek"\n';
    expect(load(toml, {}, { config: { model_provider: 'ollama' } }).provider?.id).toBe('ollama');
    expect(load(toml, {}, { modelProvider: 'lmstudio' }).provider?.id).toBe('lmstudio');
    expect(load(null, {}, { modelProvider: 'lmstudio' }).baseUrl).toBe('http://localhost:1234/v1');
  });
});

describe('[model_providers.<id>] keys', () => {
  it('wire_api, query_params, http_headers, env_http_headers and the retry counts', () => {
    const toml = [
      'model_provider = "proxy"',
      'request_max_retries = 9',
      '[model_providers.proxy]',
      'name = "Team proxy"',
      'base_url = "http://127.0.0.1:7/v1"',
      'wire_api = "chat"',
      'query_params = { "api-version" = "2025-01-01" }',
      'http_headers = { "X-Team" = "tools" }',
      'env_http_headers = { "X-Org" = "ORG_VAR", "X-Unset" = "NOT_SET_VAR" }',
      'request_max_retries = 2',
      'stream_max_retries = 1',
    ].join('\n');
    const config = load(toml, { ORG_VAR: 'org-1' });
    expect(config).toMatchObject({
      baseUrl: 'http://127.0.0.1:7/v1',
      requestMaxRetries: 2,
      streamMaxRetries: 1,
      provider: {
        id: 'proxy',
        name: 'Team proxy',
        wireApi: 'chat',
        queryParams: { 'api-version': '2025-01-01' },
        headers: { 'X-Team': 'tools', 'X-Org': 'org-1' },
      },
      warnings: [],
    });
  });

  it('an unknown wire_api is one line naming the key and the choices', () => {
    expect(loadError('model_provider = "x"\n[model_providers.x]\nbase_url = "http://127.0.0.1:7/v1"\nwire_api = "grpc"\n')).toBe(
      'model_providers.x.wire_api: expected one of "responses", "chat", "anthropic"',
    );
  });

  it('a missing env_key variable names the variable and the fix, before any request', () => {
    expect(loadError('model_provider = "deepseek"\n')).toBe(
      'model_providers.deepseek.env_key: DEEPSEEK_API_KEY is not set; export DEEPSEEK_API_KEY=<your DeepSeek API key>, or choose another model_provider',
    );
    expect(loadError('model_provider = "x"\n[model_providers.x]\nbase_url = "http://127.0.0.1:7/v1"\nenv_key = "X_KEY"\n')).toContain(
      'X_KEY is not set',
    );
    // exec's CODEX_API_KEY stands in for the variable.
    expect(load('model_provider = "deepseek"\n', {}, { apiKey: 'given' }).apiKey).toBe('given');
  });
});
