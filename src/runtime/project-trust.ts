/**
 * Codex's project trust: `[projects."<abs path>"] trust_level = "trusted" | "untrusted"` in
 * config.toml. The TUI asks once per directory that has no decision (tui/onboarding/trust-prompt.ts);
 * the decision picks the default approval policy (config.ts) and lets `tiller exec` run outside Git.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

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
  const file = join(home, 'config.toml');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, withProjectTrust(text, path, level), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** `text` with `[projects."<path>"] trust_level = level` set (pure; exported for the tests). */
export function withProjectTrust(text: string, path: string, level: TrustLevel): string {
  const header = `[projects.${JSON.stringify(path)}]`;
  const lines = text.split('\n');
  const at = lines.findIndex((line) => line.trim() === header);
  if (at >= 0) {
    let end = at + 1;
    while (end < lines.length && !lines[end]!.trim().startsWith('[')) end++;
    const own = lines.slice(at + 1, end).findIndex((line) => /^\s*trust_level\s*=/.test(line));
    if (own >= 0) lines[at + 1 + own] = `trust_level = "${level}"`;
    else lines.splice(at + 1, 0, `trust_level = "${level}"`);
    return lines.join('\n');
  }
  const sep = text === '' || text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return `${text}${sep}${header}\ntrust_level = "${level}"\n`;
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}
