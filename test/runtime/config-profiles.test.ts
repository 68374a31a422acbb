/**
 * `[profiles.NAME]` tables and `profile = "NAME"` (Codex's format), chosen by the file or by
 * ConfigOverrides.profile (`-p/--profile`). Flags beat the environment, which beats the profile,
 * which beats the file's top-level keys, which beat the defaults.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_MODEL, loadConfig, type ConfigOverrides } from '../../src/runtime/config.js';

function homeWith(toml: string | null): string {
  const home = mkdtempSync(join(tmpdir(), 'tiller-profiles-'));
  if (toml !== null) writeFileSync(join(home, 'config.toml'), toml);
  return home;
}

const FILE = [
  'model = "top-model"',
  'approval_policy = "untrusted"',
  'sandbox_mode = "read-only"',
  'model_reasoning_effort = "low"',
  'models = ["top-a", "top-b"]',
  '',
  '[profiles.fast]',
  'model = "fast-model"',
  'model_reasoning_effort = "minimal"',
  'approval_policy = "never"',
  '',
  '[profiles.local]',
  'model_provider = "vllm"',
  'sandbox_mode = "danger-full-access"',
  'models = ["local-a"]',
  '',
  '[profiles.keyed]',
  'base_url = "http://127.0.0.1:7/v1"',
  'api_key_env = "KEYED_KEY"',
  '',
  '[model_providers.vllm]',
  'base_url = "http://127.0.0.1:8000/v1"',
  'env_key = "VLLM_KEY"',
  '',
].join('\n');

function load(toml: string | null, overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = {}) {
  return loadConfig(overrides, { TILLER_HOME: homeWith(toml), ...env });
}

function configError(toml: string | null, overrides: ConfigOverrides = {}): string {
  try {
    load(toml, overrides);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig did not throw');
}

describe('profiles', () => {
  it('none selected: the top-level keys, and no warning for the [profiles.*] tables', () => {
    const config = load(FILE);
    expect(config).toMatchObject({
      profile: null,
      model: 'top-model',
      approvalPolicy: 'untrusted',
      sandboxMode: 'read-only',
      reasoningEffort: 'low',
      models: ['top-a', 'top-b'],
      warnings: [],
    });
  });

  it("ConfigOverrides.profile selects one: its keys replace the top level's, the rest stays", () => {
    expect(load(FILE, { profile: 'fast' })).toMatchObject({
      profile: 'fast',
      model: 'fast-model',
      reasoningEffort: 'minimal',
      approvalPolicy: 'never',
      sandboxMode: 'read-only',
      models: ['top-a', 'top-b'],
    });
  });

  it('`profile = "NAME"` selects one; the override beats it', () => {
    expect(load(`profile = "fast"\n${FILE}`)).toMatchObject({ profile: 'fast', model: 'fast-model' });
    expect(load(`profile = "fast"\n${FILE}`, { profile: 'local' }, { VLLM_KEY: 'vk' })).toMatchObject({
      profile: 'local',
      model: 'top-model',
      sandboxMode: 'danger-full-access',
    });
  });

  it("a profile's model_provider picks the provider's base URL and key variable", () => {
    const config = load(FILE, { profile: 'local' }, { VLLM_KEY: 'vk' });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'vk', models: ['local-a'] });
  });

  it("a profile's base_url and api_key_env beat a provider named at the top level", () => {
    const config = load(`model_provider = "vllm"\n${FILE}`, { profile: 'keyed' }, { KEYED_KEY: 'kk', VLLM_KEY: 'vk' });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:7/v1', apiKey: 'kk' });
    expect(load(`model_provider = "vllm"\n${FILE}`, {}, { VLLM_KEY: 'vk' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'vk',
    });
  });

  it('precedence: flags > environment > profile > top level > defaults', () => {
    const env = { TILLER_MODEL: 'env-model', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    expect(load(FILE, { profile: 'fast' }, env)).toMatchObject({ model: 'env-model', baseUrl: 'http://127.0.0.1:9/v1' });
    expect(load(FILE, { profile: 'fast', model: 'flag-model', approvalPolicy: 'on-request' }, env)).toMatchObject({
      model: 'flag-model',
      approvalPolicy: 'on-request',
    });
    expect(load(FILE, { profile: 'keyed' }, { KEYED_KEY: 'kk', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).baseUrl).toBe(
      'http://127.0.0.1:9/v1',
    );
    expect(load('[profiles.empty]\n', { profile: 'empty' }, { OPENAI_API_KEY: 'k' })).toMatchObject({
      model: DEFAULT_MODEL,
      approvalPolicy: 'on-request',
    });
  });

  it('an unknown profile stops Tiller with a ConfigError naming the profiles there are', () => {
    const home = homeWith(FILE);
    const path = join(home, 'config.toml');
    expect(() => loadConfig({ profile: 'nope' }, { TILLER_HOME: home })).toThrow(
      new ConfigError(path, null, 'profile "nope": no [profiles.nope] table (profiles: fast, local, keyed)'),
    );
    expect(configError(`profile = "nope"\n${FILE}`)).toMatch(
      /config\.toml:1: profile: no \[profiles\.nope\] table \(profiles: fast, local, keyed\)$/,
    );
    expect(configError('model = "m"\n', { profile: 'x' })).toMatch(
      /config\.toml: profile "x": no \[profiles\.x\] table \(the file defines no profiles\)$/,
    );
    expect(configError(null, { profile: 'x' })).toMatch(/config\.toml: profile "x": the file does not exist$/);
    // A name Object.prototype has is no profile either.
    expect(configError(FILE, { profile: 'constructor' })).toContain('profile "constructor": no [profiles.constructor] table');
  });

  it("a profile's keys are checked as the top level's: unknown keys warn, a bad critical value stops", () => {
    const warned = load('[profiles.p]\nmodel = "m"\nfancy = 1\nmodel_reasoning_effort = "max"\napproval_policy = "on-failure"\n', {
      profile: 'p',
    });
    expect(warned.warnings).toEqual([
      'config.toml: unknown key profiles.p.fancy (ignored)',
      'config.toml: profiles.p.model_reasoning_effort: expected one of "minimal", "low", "medium", "high", "xhigh" (ignored)',
      'config.toml: profiles.p.approval_policy "on-failure" is read as "on-request"',
    ]);
    expect(warned).toMatchObject({ model: 'm', reasoningEffort: null, approvalPolicy: 'on-request' });
    expect(configError('model = "m"\n\n[profiles.p]\nsandbox_mode = "everything"\n')).toMatch(
      /config\.toml:4: profiles\.p\.sandbox_mode: expected one of/,
    );
    expect(configError('[profiles.p]\nmodel_provider = "missing"\n', { profile: 'p' })).toMatch(
      /config\.toml:2: profiles\.p\.model_provider: no \[model_providers\.missing\] table$/,
    );
    expect(load('[profiles.p]\nprofiles = 1\n').warnings).toEqual(['config.toml: unknown key profiles.p.profiles (ignored)']);
  });
});

describe('models', () => {
  it('is a list of names; anything else is a warning and ignored', () => {
    expect(load('models = ["a", "b"]\n').models).toEqual(['a', 'b']);
    const bad = load('models = "a"\n');
    expect(bad.models).toEqual([]);
    expect(bad.warnings).toEqual(['config.toml: models: expected a list of model names (ignored)']);
  });
});
