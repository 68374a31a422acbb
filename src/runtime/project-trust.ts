/**
 * Codex's project trust: `[projects."<abs path>"] trust_level = "trusted" | "untrusted"` in
 * config.toml. The TUI asks once per directory that has no decision (tui/onboarding/trust-prompt.ts);
 * the decision picks the default approval policy (config.ts) and lets `tiller exec` run outside Git.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { editConfigFile, withConfigValue } from './config-edit.js';

export type TrustLevel = 'trusted' | 'untrusted';

/** The decision for `dir`: the entry for it or the nearest directory above it; null, none. */
export function projectTrustLevel(dir: string, projects: Readonly<Record<string, TrustLevel>>): TrustLevel | null {
  const spellings = [...new Set([resolve(dir), realOrSelf(dir)])];
  let best: { depth: number; level: TrustLevel } | null = null;
  for (const [root, level] of Object.entries(projects)) {
    for (const spelling of spellings) {
      const rel = relative(resolve(root), spelling);
      if (rel !== '' && (rel.startsWith('..') || isAbsolute(rel))) continue;
      // The deepest entry wins: an untrusted folder inside a trusted one stays untrusted.
      const depth = resolve(root).length;
      if (best === null || depth > best.depth) best = { depth, level };
    }
  }
  return best?.level ?? null;
}

/** Where a decision made in `cwd` is recorded: the Git work tree's root, as Codex, else `cwd` itself. */
export function trustTarget(cwd: string): string {
  const start = realOrSelf(cwd);
  for (let current = start; ; current = dirname(current)) {
    try {
      readFileSync(join(current, '.git'));
      return current; // a worktree's `.git` file
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') return current;
    }
    if (dirname(current) === current) return start;
  }
}

/**
 * Records the decision in `home/config.toml` (0600, its folder 0700), keeping the rest of the file
 * as written: an existing `trust_level` for the path is replaced, else the table is appended.
 */
export function writeProjectTrust(home: string, path: string, level: TrustLevel): void {
  editConfigFile(home, (text) => withProjectTrust(text, path, level));
}

/** `text` with `[projects."<path>"] trust_level = level` set (pure; exported for the tests). */
export function withProjectTrust(text: string, path: string, level: TrustLevel): string {
  return withConfigValue(text, ['projects', path], 'trust_level', level);
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
