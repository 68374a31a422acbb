import { describe, expect, it } from 'vitest';
import {
  commandEnvironment,
  DEFAULT_SHELL_ENVIRONMENT_POLICY,
  type ShellEnvironmentPolicy,
} from '../../src/runtime/commands/environment.js';

const env = {
  PATH: '/bin',
  HOME: '/h',
  OPENAI_API_KEY: 'sk',
  my_api_key: 'k',
  GITHUB_TOKEN: 't',
  AWS_SECRET_ACCESS_KEY: 's',
  KEYBOARD: 'hmm',
  PROVIDER_VAR: 'p',
  EDITOR: 'vi',
};
const policy = (over: Partial<ShellEnvironmentPolicy>): ShellEnvironmentPolicy => ({ ...DEFAULT_SHELL_ENVIRONMENT_POLICY, ...over });

describe("Codex's shell_environment_policy", () => {
  it('by default: everything but the provider key and *KEY*/*SECRET*/*TOKEN* (any case)', () => {
    expect(commandEnvironment(DEFAULT_SHELL_ENVIRONMENT_POLICY, env, ['PROVIDER_VAR'])).toEqual({ PATH: '/bin', HOME: '/h', EDITOR: 'vi' });
  });

  it('inherit core keeps the core variables only; none keeps nothing but `set`', () => {
    expect(commandEnvironment(policy({ inherit: 'core' }), env)).toEqual({ PATH: '/bin', HOME: '/h' });
    expect(commandEnvironment(policy({ inherit: 'none', set: { CI: '1' } }), env)).toEqual({ CI: '1' });
  });

  it('applies excludes, then set, then include_only, in that order', () => {
    const out = commandEnvironment(
      policy({
        ignoreDefaultExcludes: true,
        exclude: ['*_KEY', 'aws_*'],
        set: { GITHUB_TOKEN: 'override', EXTRA: 'x' },
        includeOnly: ['PATH', 'GITHUB_*', 'KEY?OARD'],
      }),
      env,
      ['PROVIDER_VAR'],
    );
    expect(out).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'override', KEYBOARD: 'hmm' });
  });
});
