/**
 * `vim_escape_sequence` (`jj`, `jk`): its two keys within VIM_ESCAPE_TIMEOUT_MS (injected time) in
 * Insert mode act as Esc and leave no trace in the text or the undo history; slower, or another key
 * between them, and they are typed. Also the config key that sets it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigFile } from '../../../src/runtime/config-check.js';
import { loadConfig } from '../../../src/runtime/config.js';
import { validEscapeSequence, VIM_ESCAPE_TIMEOUT_MS } from '../../../src/tui/composer/vim.js';
import { VimRun, vimDraft } from './vim-harness.js';

function jj(marked = '|', seq = 'jj'): VimRun {
  return new VimRun(vimDraft(marked, { escapeSequence: seq }));
}

describe('the Insert-mode escape sequence', () => {
  it('jj typed quickly leaves Insert mode and takes the first j back out', () => {
    const r = jj().keys('iabjj');
    expect(r.mode).toBe('normal');
    expect(r.marked).toBe('a|b');
  });

  it('jj slower than the window is typed', () => {
    const r = jj().keys('iab');
    r.keys('j', VIM_ESCAPE_TIMEOUT_MS + 100);
    r.keys('j', VIM_ESCAPE_TIMEOUT_MS + 100);
    expect(r.mode).toBe('insert');
    expect(r.text).toBe('abjj');
  });

  it('another key between the two is typed, and the sequence can start again after it', () => {
    const r = jj().keys('ijxj');
    expect(r.text).toBe('jxj');
    expect(r.mode).toBe('insert');
    // The last j and this one make the sequence.
    r.keys('j');
    expect(r.mode).toBe('normal');
    expect(r.text).toBe('jx');
  });

  it('jk: j then k escapes, j then j is typed', () => {
    const r = jj('|', 'jk').keys('ijj');
    expect(r.text).toBe('jj');
    r.keys('k');
    expect(r.mode).toBe('normal');
    expect(r.marked).toBe('|j');
  });

  it('leaves nothing to undo but the typed text: u goes back to the draft before the session', () => {
    const r = jj('|abc').keys('Axyjj');
    expect(r.text).toBe('abcxy');
    r.keys('u');
    expect(r.text).toBe('abc');
    r.keys('<C-r>');
    expect(r.text).toBe('abcxy');
  });

  it('a session that typed only the first key ends with the draft untouched', () => {
    const r = jj('|abc').keys('ijj');
    expect(r.text).toBe('abc');
    expect(r.state.undo.past).toEqual([]);
  });

  it('without the setting jj is typed, and in Normal mode j moves', () => {
    const plain = new VimRun(vimDraft('|')).keys('ijj');
    expect(plain.text).toBe('jj');
    const normal = jj('|a\nb\nc').keys('jj');
    expect(normal.marked).toBe('a\nb\n|c');
    expect(normal.mode).toBe('normal');
  });

  it('only two printable characters make a sequence', () => {
    expect(validEscapeSequence('jj')).toBe('jj');
    expect(validEscapeSequence('jk')).toBe('jk');
    expect(validEscapeSequence('j')).toBeNull();
    expect(validEscapeSequence('jjj')).toBeNull();
    expect(validEscapeSequence('j ')).toBeNull();
    expect(validEscapeSequence(null)).toBeNull();
  });
});

describe('vim_escape_sequence in config.toml', () => {
  it('is checked: two characters, else a warning and no sequence', () => {
    expect(checkConfigFile({ vim_escape_sequence: 'jk' })).toEqual({ file: { vim_escape_sequence: 'jk' }, warnings: [], error: null });
    const bad = checkConfigFile({ vim_escape_sequence: 'j' });
    expect(bad.file).toEqual({});
    expect(bad.warnings).toEqual(['config.toml: vim_escape_sequence: expected two characters, such as "jj" or "jk" (ignored)']);
  });

  it('reaches the config as vimEscapeSequence (null when not set)', () => {
    const home = mkdtempSync(join(tmpdir(), 'tiller-vim-'));
    try {
      expect(loadConfig({}, { TILLER_HOME: home }).vimEscapeSequence).toBeNull();
      writeFileSync(join(home, 'config.toml'), 'vim_mode_default = true\nvim_escape_sequence = "jj"\n');
      expect(loadConfig({}, { TILLER_HOME: home })).toMatchObject({ vimModeDefault: true, vimEscapeSequence: 'jj' });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
