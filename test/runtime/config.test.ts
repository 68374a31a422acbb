import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../src/runtime/config-check.js';
import { ConfigError, isOffline, loadConfig, OFFLINE_MODEL } from '../../src/runtime/config.js';

function homeWith(toml: string | null): string {
  const home = mkdtempSync(join(tmpdir(), 'tiller-config-'));
  if (toml !== null) writeFileSync(join(home, 'config.toml'), toml);
  return home;
}

/** The ConfigError loadConfig throws for this file (fails the test when it does not throw). */
function configError(toml: string, env: NodeJS.ProcessEnv = {}): { message: string; path: string } {
  const home = homeWith(toml);
  try {
    loadConfig({}, { TILLER_HOME: home, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return { message: (error as Error).message, path: join(home, 'config.toml') };
  }
  throw new Error('loadConfig did not throw');
}

describe('loadConfig', () => {
  it('no key and no base URL: the offline model with the defaults', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith(null) });
    expect(isOffline(config)).toBe(true);
    expect(config).toMatchObject({
      model: OFFLINE_MODEL,
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      sandboxWritableRoots: [],
      sandboxNetworkAccess: false,
      reasoningEffort: null,
      mcpServers: {},
      vimModeDefault: false,
      streamMaxRetries: 5,
      warnings: [],
    });
  });

  it('the environment beats the file, and the file beats the defaults', () => {
    const home = homeWith('model = "file-model"\nbase_url = "http://127.0.0.1:9/v1"\nvim_mode_default = true\napproval_policy = "never"\n');
    const fromFile = loadConfig({}, { TILLER_HOME: home });
    expect(fromFile).toMatchObject({
      model: 'file-model',
      baseUrl: 'http://127.0.0.1:9/v1',
      vimModeDefault: true,
      approvalPolicy: 'never',
    });
    const fromEnv = loadConfig({}, { TILLER_HOME: home, TILLER_MODEL: 'env-model', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1' });
    expect(fromEnv).toMatchObject({ model: 'env-model', baseUrl: 'http://127.0.0.1:8/v1' });
    expect(loadConfig({ model: 'flag-model' }, { TILLER_HOME: home, TILLER_MODEL: 'env-model' }).model).toBe('flag-model');
  });

  it('reads the key from the variable the file names', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('api_key_env = "MY_KEY"\n'), MY_KEY: 'k' });
    expect(config.apiKey).toBe('k');
    expect(isOffline(config)).toBe(false);
  });

  it('a missing file is the defaults; a config.toml that cannot be read stops', () => {
    expect(loadConfig({}, { TILLER_HOME: join(tmpdir(), 'tiller-no-such-home') }).warnings).toEqual([]);
    const home = homeWith(null);
    mkdirSync(join(home, 'config.toml'));
    expect(() => loadConfig({}, { TILLER_HOME: home })).toThrow(new RegExp(`^${join(home, 'config.toml')}: cannot read: `));
  });
});

describe('unknown keys and bad values of keys that only tune behaviour', () => {
  it('each unknown key is one warning and the rest of the file applies (base_url is kept)', () => {
    const home = homeWith(
      'model_reasoning_effort = "high"\nfancy_mode = true\nbase_url = "http://127.0.0.1:9/v1"\nanother = 1\nmodel = "m"\n\n[profiles.fast]\nmodel = "x"\n',
    );
    const config = loadConfig({}, { TILLER_HOME: home, OPENAI_API_KEY: 'sk-test' });
    expect(config.warnings).toEqual(['config.toml: unknown key fancy_mode (ignored)', 'config.toml: unknown key another (ignored)']);
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-test', reasoningEffort: 'high' });
  });

  it('names a nested unknown key by its path', () => {
    const home = homeWith(
      '[hooks]\nfoo = ["x"]\nuser_prompt_submit = ["./check.sh"]\n\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n',
    );
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.warnings).toEqual([
      'config.toml: unknown key hooks.foo (ignored)',
      'config.toml: unknown key sandbox_workspace_write.exclude_slash_tmp (ignored)',
    ]);
    expect(config.userPromptSubmitHooks).toEqual(['./check.sh']);
  });

  it('a bad value of a non-critical key is a warning naming the key and why; only that key is ignored', () => {
    const home = homeWith('stream_max_retries = 101\nvim_mode_default = "yes"\nmodel = "x"\n');
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.warnings).toEqual([
      'config.toml: stream_max_retries: expected a whole number from 0 to 100 (ignored)',
      'config.toml: vim_mode_default: expected true or false (ignored)',
    ]);
    expect(config).toMatchObject({ model: 'x', approvalPolicy: 'on-request', streamMaxRetries: 5, vimModeDefault: false });
  });

  it('a key named like an Object.prototype member is just unknown', () => {
    expect(loadConfig({}, { TILLER_HOME: homeWith('constructor = 1\n') }).warnings).toEqual([
      'config.toml: unknown key constructor (ignored)',
    ]);
  });
});

describe('a file Tiller must not start with', () => {
  it('a bad base_url, model or api_key_env stops with path:line: key: reason', () => {
    const bad = configError('model = "m"\n\n  base_url = "not a url"\n');
    expect(bad.message).toBe(`${bad.path}:3: base_url: expected a URL`);
    const model = configError('# mine\nmodel = 5\n');
    expect(model.message).toBe(`${model.path}:2: model: expected a non-empty string`);
    const keyEnv = configError('api_key_env = ""\n');
    expect(keyEnv.message).toBe(`${keyEnv.path}:1: api_key_env: expected a non-empty string`);
  });

  it('broken TOML stops with the line of the mistake', () => {
    const broken = configError('model = "m"\nbase_url = "http://127.0.0.1:9/v1"\nstream_max_retries = [\n');
    expect(broken.message).toMatch(new RegExp(`^${broken.path}:\\d+: not valid TOML: \\S`));
    expect(configError('model = "m"\nmodel = "n"\n').message).toMatch(/:2: not valid TOML: /);
  });

  it('a bad provider key stops at its line inside its table', () => {
    const toml =
      'model_provider = "local"\n\n[model_providers.other]\nbase_url = "http://127.0.0.1:1/v1"\n\n[model_providers.local]\nname = "Local"\nbase_url = "nope"\n';
    const bad = configError(toml);
    expect(bad.message).toBe(`${bad.path}:8: model_providers.local.base_url: expected a URL`);
    const missing = configError('model = "m"\nmodel_provider = "nosuch"\n');
    expect(missing.message).toBe(`${missing.path}:2: model_provider: no [model_providers.nosuch] table`);
  });
});

describe("Codex's key names", () => {
  it('model_provider selects a [model_providers.NAME]: its base_url and env_key give the server and key', () => {
    const toml = [
      'model_provider = "local"',
      '[model_providers.local]',
      'name = "Local vLLM"',
      'base_url = "http://127.0.0.1:7/v1"',
      'env_key = "LOCAL_KEY"',
      'wire_api = "responses"',
      '[model_providers.unused]',
      'base_url = "http://127.0.0.1:6/v1"',
    ].join('\n');
    const home = homeWith(toml);
    const config = loadConfig({}, { TILLER_HOME: home, LOCAL_KEY: 'local-secret', OPENAI_API_KEY: 'not-this-one' });
    expect(config).toMatchObject({ baseUrl: 'http://127.0.0.1:7/v1', apiKey: 'local-secret' });
    expect(config.warnings).toEqual([]);
    // OPENAI_BASE_URL is the OpenAI provider's: this provider's own base_url wins; the flag beats both.
    expect(loadConfig({}, { TILLER_HOME: home, LOCAL_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1' }).baseUrl).toBe(
      'http://127.0.0.1:7/v1',
    );
    expect(
      loadConfig({ baseUrl: 'http://127.0.0.1:5/v1' }, { TILLER_HOME: home, LOCAL_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1' })
        .baseUrl,
    ).toBe('http://127.0.0.1:5/v1');
  });

  it('model_provider = "openai" is built in', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('model_provider = "openai"\n'), OPENAI_API_KEY: 'sk-x' });
    expect(config).toMatchObject({ baseUrl: null, apiKey: 'sk-x', warnings: [] });
  });

  it('sandbox_mode, [sandbox_workspace_write] and model_reasoning_effort', () => {
    const home = homeWith(
      'sandbox_mode = "read-only"\nmodel_reasoning_effort = "xhigh"\n\n[sandbox_workspace_write]\nwritable_roots = ["/data", "/cache"]\nnetwork_access = true\n',
    );
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config).toMatchObject({
      sandboxMode: 'read-only',
      sandboxWritableRoots: ['/data', '/cache'],
      sandboxNetworkAccess: true,
      reasoningEffort: 'xhigh',
      warnings: [],
    });
    expect(loadConfig({}, { TILLER_HOME: homeWith('model_reasoning_effort = "max"\n') })).toMatchObject({
      reasoningEffort: null,
      warnings: ['config.toml: model_reasoning_effort: expected one of "minimal", "low", "medium", "high", "xhigh" (ignored)'],
    });
  });

  it('a mistyped sandbox_mode or approval_policy stops Tiller: it must not fall back to one that allows more', () => {
    const sandbox = configError('model = "m"\nsandbox_mode = "readonly"\n');
    expect(sandbox.message).toBe(`${sandbox.path}:2: sandbox_mode: expected one of "read-only", "workspace-write", "danger-full-access"`);
    const approval = configError('approval_policy = "sometimes"\n');
    expect(approval.message).toBe(`${approval.path}:1: approval_policy: expected one of "untrusted", "on-request", "never", "on-failure"`);
  });

  it('approval_policy "on-failure" is read as on-request, with a warning', () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('approval_policy = "on-failure"\n') });
    expect(config.approvalPolicy).toBe('on-request');
    expect(config.warnings).toEqual(['config.toml: approval_policy "on-failure" is read as "on-request"']);
  });

  it('[mcp_servers.*] is kept as written, without a warning', () => {
    const home = homeWith('[mcp_servers.docs]\ncommand = "docs-server"\nargs = ["--stdio"]\n\n[mcp_servers.docs.env]\nTOKEN_VAR = "X"\n');
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.mcpServers).toEqual({ docs: { command: 'docs-server', args: ['--stdio'], env: { TOKEN_VAR: 'X' } } });
    expect(config.warnings).toEqual([]);
  });
});

describe('overrides', () => {
  it('beat the file; --add-dir roots are appended to the writable roots', () => {
    const home = homeWith(
      'model = "file"\napproval_policy = "untrusted"\nsandbox_mode = "read-only"\n[sandbox_workspace_write]\nwritable_roots = ["/data"]\n',
    );
    const config = loadConfig(
      { model: 'flag', approvalPolicy: 'never', sandboxMode: 'danger-full-access', addDirs: ['/extra'] },
      { TILLER_HOME: home, TILLER_MODEL: 'env' },
    );
    expect(config).toMatchObject({
      model: 'flag',
      approvalPolicy: 'never',
      sandboxMode: 'danger-full-access',
      sandboxWritableRoots: ['/data', '/extra'],
    });
  });
});

describe('checkConfigFile', () => {
  it('accepts every documented key without a warning', () => {
    const file = {
      model: 'm',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'K',
      model_provider: 'p',
      model_providers: { p: { name: 'P', base_url: 'http://127.0.0.1:2/v1', env_key: 'P_KEY' } },
      approval_policy: 'untrusted',
      sandbox_mode: 'workspace-write',
      sandbox_workspace_write: { writable_roots: ['/tmp/x'], network_access: false },
      model_reasoning_effort: 'low',
      mcp_servers: { s: { url: 'http://127.0.0.1:3/mcp' } },
      vim_mode_default: true,
      model_supports_images: false,
      interrupt_marker: false,
      stream_max_retries: 0,
      stream_idle_timeout_ms: 1000,
      hooks: { user_prompt_submit: ['./check.sh'] },
      skills_dir: '/tmp/skills',
    };
    expect(checkConfigFile(file)).toEqual({ file, warnings: [], error: null });
  });

  it('a non-table where a table belongs: a warning, or an error for the providers', () => {
    expect(checkConfigFile({ hooks: 'x', mcp_servers: 3 }).warnings).toEqual([
      'config.toml: hooks: expected a table (ignored)',
      'config.toml: mcp_servers: expected a table (ignored)',
    ]);
    expect(checkConfigFile({ model_providers: { p: 'x' } }).error).toEqual({ path: ['model_providers', 'p'], reason: 'expected a table' });
  });
});

describe('notify', () => {
  it('defaults to osc9; each method is taken; anything else is a warning and the default', () => {
    expect(loadConfig({}, { TILLER_HOME: homeWith(null) }).notify).toBe('osc9');
    for (const method of ['osc9', 'osc777', 'bell', 'off']) {
      expect(loadConfig({}, { TILLER_HOME: homeWith(`notify = "${method}"\n`) })).toMatchObject({ notify: method, warnings: [] });
    }
    const bad = loadConfig({}, { TILLER_HOME: homeWith('notify = "popup"\n') });
    expect(bad).toMatchObject({
      notify: 'osc9',
      warnings: ['config.toml: notify: expected one of "osc9", "osc777", "bell", "off" (ignored)'],
    });
  });

  it("Codex's notify (a program to run) is a warning that says so, not an error", () => {
    const config = loadConfig({}, { TILLER_HOME: homeWith('notify = ["notify-send", "done"]\n') });
    expect(config.notify).toBe('osc9');
    expect(config.warnings).toEqual([
      `config.toml: notify: a program to run (Codex's notify) is not supported; expected one of "osc9", "osc777", "bell", "off" (ignored)`,
    ]);
  });
});
