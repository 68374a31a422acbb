/**
 * The environment a model's command gets: Codex's `[shell_environment_policy]`, applied in Codex's
 * order. 1. `inherit`: all of Tiller's variables, only the core ones (HOME, PATH, …) or none.
 * 2. Unless `ignore_default_excludes`, the default excludes: the provider's key variable and every
 * name matching `*KEY*`, `*SECRET*` or `*TOKEN*`, so an API key never reaches what the model runs.
 * 3. `exclude` patterns. 4. `set` values. 5. `include_only` patterns, when given, keep only those.
 * Patterns are globs (`*`, `?`), matched without regard to case.
 */
export type ShellEnvironmentInherit = 'all' | 'core' | 'none';

export interface ShellEnvironmentPolicy {
  inherit: ShellEnvironmentInherit;
  ignoreDefaultExcludes: boolean;
  exclude: string[];
  set: Record<string, string>;
  includeOnly: string[];
}

export const DEFAULT_SHELL_ENVIRONMENT_POLICY: ShellEnvironmentPolicy = {
  inherit: 'all',
  ignoreDefaultExcludes: false,
  exclude: [],
  set: {},
  includeOnly: [],
};

/** Codex's core variables: what `inherit = "core"` keeps. */
const CORE_VARIABLES = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'USERNAME', 'TMPDIR', 'TEMP', 'TMP'];
const DEFAULT_EXCLUDES = ['*KEY*', '*SECRET*', '*TOKEN*'];

function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const sources = patterns.map((pattern) =>
    pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.'),
  );
  const regex = new RegExp(`^(?:${sources.join('|')})$`, 'i');
  return (name) => regex.test(name);
}

/**
 * `env` under `policy`. `secretNames`: variables that hold the provider's key (`env_key`), removed
 * with the default excludes whatever their names.
 */
export function commandEnvironment(
  policy: ShellEnvironmentPolicy,
  env: NodeJS.ProcessEnv,
  secretNames: readonly string[] = [],
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  const core = new Set(CORE_VARIABLES);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (policy.inherit === 'none' || (policy.inherit === 'core' && !core.has(name))) continue;
    out[name] = value;
  }
  if (!policy.ignoreDefaultExcludes) {
    const excluded = globMatcher(DEFAULT_EXCLUDES);
    const secrets = new Set(secretNames);
    for (const name of Object.keys(out)) if (excluded(name) || secrets.has(name)) delete out[name];
  }
  const excluded = globMatcher(policy.exclude);
  for (const name of Object.keys(out)) if (excluded(name)) delete out[name];
  Object.assign(out, policy.set);
  if (policy.includeOnly.length > 0) {
    const kept = globMatcher(policy.includeOnly);
    for (const name of Object.keys(out)) if (!kept(name)) delete out[name];
  }
  return out;
}

/** The environment of a model's command under the config's policy (Codex's defaults when it has none). */
export function modelCommandEnvironment(
  config: { shellEnvironmentPolicy?: ShellEnvironmentPolicy; secretEnvNames?: string[] },
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const secrets = config.secretEnvNames ?? ['OPENAI_API_KEY', 'CODEX_API_KEY'];
  return commandEnvironment(config.shellEnvironmentPolicy ?? DEFAULT_SHELL_ENVIRONMENT_POLICY, env, secrets);
}
