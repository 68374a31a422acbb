import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFile, isOffline, loadConfig, OFFLINE_MODEL } from '../../src/runtime/config.js';

function homeWith(toml: string | null): string {
  const home = mkdtempSync(join(tmpdir(), 'tiller-config-'));
  mkdirSync(home, { recursive: true });
  if (toml !== null) writeFileSync(join(home, 'config.toml'), toml);
  return home;
}

describe('loadConfig', () => {
  it('no key and no base URL: the offline model with the defaults', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith(null) });
    expect(isOffline(config)).toBe(true);
    expect(config).toMatchObject({ model: OFFLINE_MODEL, approvalPolicy: 'on-request', vimModeDefault: false, streamMaxRetries: 5, warnings: [] });
  });

  it('the environment beats the file, and the file beats the defaults', () => {
    const home = homeWith('model = "file-model"\nbase_url = "http://127.0.0.1:9/v1"\nvim_mode_default = true\napproval_policy = "never"\n');
    const fromFile = loadConfig({}, { TILLER_HOME: home });
    expect(fromFile).toMatchObject({ model: 'file-model', baseUrl: 'http://127.0.0.1:9/v1', vimModeDefault: true, approvalPolicy: 'never' });
    const fromEnv = loadConfig({}, { TILLER_HOME: home, TILLER_MODEL: 'env-model', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1' });
    expect(fromEnv).toMatchObject({ model: 'env-model', baseUrl: 'http://127.0.0.1:8/v1' });
    expect(loadConfig({ model: 'flag-model' }, { TILLER_HOME: home, TILLER_MODEL: 'env-model' }).model).toBe('flag-model');
  });

  it('reads the key from the variable the file names', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('api_key_env = "MY_KEY"\n'), MY_KEY: 'k' });
    expect(config.apiKey).toBe('k');
    expect(isOffline(config)).toBe(false);
  });

  it('a bad file is a warning naming the key, and the defaults are used', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('approval_policy = "sometimes"\nmodel = "x"\n') });
    expect(config.warnings).toEqual(['config.toml: approval_policy: expected one of "on-request", "never", "untrusted"; using defaults']);
    expect(config.model).toBe(OFFLINE_MODEL);
    expect(loadConfig({}, { TILLER_HOME: homeWith('model = [') }).warnings[0]).toMatch(/^config\.toml: .*; using defaults$/);
  });
});

describe('checkConfigFile', () => {
  it('names the path of the first problem', () => {
    expect(checkConfigFile({ colour: 'red' })).toEqual({ ok: false, error: 'colour: unknown key' });
    expect(checkConfigFile({ base_url: 'not a url' })).toEqual({ ok: false, error: 'base_url: expected a URL' });
    expect(checkConfigFile({ stream_max_retries: 101 })).toEqual({ ok: false, error: 'stream_max_retries: expected a whole number from 0 to 100' });
    expect(checkConfigFile({ hooks: { user_prompt_submit: [1] } })).toEqual({ ok: false, error: 'hooks.user_prompt_submit: expected a list of commands' });
    expect(checkConfigFile({ hooks: { stop: [] } })).toEqual({ ok: false, error: 'hooks.stop: unknown key' });
  });

  it('accepts every documented key', () => {
    const file = {
      model: 'm',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'K',
      approval_policy: 'untrusted',
      vim_mode_default: true,
      model_supports_images: false,
      interrupt_marker: false,
      stream_max_retries: 0,
      stream_idle_timeout_ms: 1000,
      hooks: { user_prompt_submit: ['./check.sh'] },
      skills_dir: '/tmp/skills',
    };
    expect(checkConfigFile(file)).toEqual({ ok: true, value: file });
  });
});
