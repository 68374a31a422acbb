/**
 * Project trust: which entry decides a directory, where a decision is recorded (the Git root), and
 * the config.toml edit that keeps the rest of the file; loadConfig's defaults from the decision.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { projectTrustLevel, trustTarget, withProjectTrust, writeProjectTrust } from '../../src/runtime/project-trust.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tiller-trust-')));
  dirs.push(dir);
  return dir;
}

describe('projectTrustLevel', () => {
  it('takes the directory’s own entry or the nearest one above it; none is null', () => {
    const projects = { '/w': 'trusted', '/w/vendor': 'untrusted' } as const;
    expect(projectTrustLevel('/w', projects)).toBe('trusted');
    expect(projectTrustLevel('/w/src/deep', projects)).toBe('trusted');
    expect(projectTrustLevel('/w/vendor/lib', projects)).toBe('untrusted');
    expect(projectTrustLevel('/wx', projects)).toBeNull();
    expect(projectTrustLevel('/elsewhere', {})).toBeNull();
  });
});

describe('trustTarget', () => {
  it('is the Git work tree’s root (a .git directory or a worktree’s .git file), else the directory', () => {
    const root = tempDir();
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'repo', 'src'));
    expect(trustTarget(join(root, 'repo', 'src'))).toBe(join(root, 'repo'));
    mkdirSync(join(root, 'wt', 'a'), { recursive: true });
    writeFileSync(join(root, 'wt', '.git'), 'gitdir: /somewhere\n');
    expect(trustTarget(join(root, 'wt', 'a'))).toBe(join(root, 'wt'));
    mkdirSync(join(root, 'plain'));
    expect(trustTarget(join(root, 'plain'))).toBe(join(root, 'plain'));
  });
});

describe('withProjectTrust', () => {
  it('appends the table after the file’s own keys, and replaces an earlier decision in place', () => {
    const first = withProjectTrust('model = "m" # mine\n', '/w', 'trusted');
    expect(first).toBe('model = "m" # mine\n\n[projects."/w"]\ntrust_level = "trusted"\n');
    const changed = withProjectTrust(`${first}[other]\nx = 1\n`, '/w', 'untrusted');
    expect(changed).toBe('model = "m" # mine\n\n[projects."/w"]\ntrust_level = "untrusted"\n[other]\nx = 1\n');
    expect(withProjectTrust('', '/a "b"', 'trusted')).toBe('[projects."/a \\"b\\""]\ntrust_level = "trusted"\n');
  });
});

describe('writeProjectTrust and loadConfig', () => {
  it('writes config.toml 0600; trusted keeps on-request, untrusted defaults to untrusted, explicit keys win', () => {
    const home = join(tempDir(), 'home');
    const work = tempDir();
    const load = (cwd = work) => loadConfig({}, { TILLER_HOME: home }, cwd);
    expect(load().projectTrust).toBeNull();
    expect(load().policyExplicit).toBe(false);
    writeProjectTrust(home, work, 'trusted');
    expect(statSync(join(home, 'config.toml')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(load()).toMatchObject({ projectTrust: 'trusted', approvalPolicy: 'on-request', sandboxMode: 'workspace-write' });
    expect(load().trustedProjects).toEqual([work]);
    writeProjectTrust(home, work, 'untrusted');
    expect(load()).toMatchObject({ projectTrust: 'untrusted', approvalPolicy: 'untrusted', sandboxMode: 'workspace-write' });
    expect(loadConfig({ approvalPolicy: 'never' }, { TILLER_HOME: home }, work)).toMatchObject({
      approvalPolicy: 'never',
      policyExplicit: true,
    });
    writeFileSync(join(home, 'config.toml'), `sandbox_mode = "read-only"\n${readFileSync(join(home, 'config.toml'), 'utf8')}`);
    expect(load()).toMatchObject({ policyExplicit: true, approvalPolicy: 'untrusted', sandboxMode: 'read-only' });
  });
});
