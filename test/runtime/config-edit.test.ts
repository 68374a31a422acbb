import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { withConfigValue, writeConfigValue } from '../../src/runtime/config-edit.js';

describe('withConfigValue', () => {
  it('sets a top-level key above the first table, keeping comments and other keys', () => {
    const text = '# my config\nmodel = "m" # mine\n\n[tui]\nstatus_line = ["model-name"]\n';
    const out = withConfigValue(text, [], 'theme', 'light');
    expect(out).toBe('# my config\nmodel = "m" # mine\ntheme = "light"\n\n[tui]\nstatus_line = ["model-name"]\n');
  });

  it('replaces a top-level key in place', () => {
    expect(withConfigValue('theme = "dark" # old\nmodel = "m"\n', [], 'theme', 'light')).toBe('theme = "light"\nmodel = "m"\n');
  });

  it('replaces a multi-line array as a whole', () => {
    const text = '[tui]\nstatus_line = [\n  "model-name", # first\n  "git-branch",\n]\nother = 1\n';
    const out = withConfigValue(text, ['tui'], 'status_line', ['current-dir']);
    expect(out).toBe('[tui]\nstatus_line = ["current-dir"]\nother = 1\n');
  });

  it('adds the key to an existing table, after its last key', () => {
    const text = '[tui]\nnotifications = true\n\n# next\n[projects."/w"]\ntrust_level = "trusted"\n';
    const out = withConfigValue(text, ['tui'], 'status_line', ['model-name', 'git-branch']);
    expect(out).toContain('[tui]\nnotifications = true\nstatus_line = ["model-name", "git-branch"]\n\n# next\n[projects."/w"]');
    expect(parse(out)).toEqual({
      tui: { notifications: true, status_line: ['model-name', 'git-branch'] },
      projects: { '/w': { trust_level: 'trusted' } },
    });
  });

  it('appends a missing table, quoting keys that need it', () => {
    expect(withConfigValue('model = "m"', ['projects', '/a b'], 'trust_level', 'trusted')).toBe(
      'model = "m"\n\n[projects."/a b"]\ntrust_level = "trusted"\n',
    );
    expect(withConfigValue('', ['tui'], 'status_line', [])).toBe('[tui]\nstatus_line = []\n');
  });

  it('refuses an edit that would not parse', () => {
    expect(() => withConfigValue('tui = { status_line = [] }\n', ['tui'], 'status_line', ['x'])).toThrow();
  });
});

describe('writeConfigValue', () => {
  it('writes config.toml 0600 in a 0700 home, creating it', () => {
    const home = join(mkdtempSync(join(tmpdir(), 'tiller-cfg-')), 'home');
    writeConfigValue(home, ['tui'], 'status_line', ['sandbox']);
    writeConfigValue(home, [], 'theme', 'high-contrast');
    const file = join(home, 'config.toml');
    expect(readFileSync(file, 'utf8')).toBe('theme = "high-contrast"\n\n[tui]\nstatus_line = ["sandbox"]\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('leaves the file alone when the edit fails', () => {
    const home = mkdtempSync(join(tmpdir(), 'tiller-cfg-'));
    writeFileSync(join(home, 'config.toml'), 'tui = { a = 1 }\n');
    expect(() => writeConfigValue(home, ['tui'], 'status_line', [])).toThrow();
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toBe('tui = { a = 1 }\n');
  });
});
