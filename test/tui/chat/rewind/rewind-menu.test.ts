/** The rewind menu's choices and keys (chat/rewind/rewind-menu.ts) and its rows (rewind-lines.ts). */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { OVERWRITE_TITLE, rewindMenuLines, shownPath } from '../../../../src/tui/chat/rewind/rewind-lines.js';
import { askOverwrite, openRewindMenu, rewindMenuKey, scopeUnavailable } from '../../../../src/tui/chat/rewind/rewind-menu.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import type { RewindMenuState } from '../../../../src/tui/store-types.js';

const plain = new Chalk({ level: 0 });
type Why = { conversation: string | null; files: string | null };
const all: Why = { conversation: null, files: null };
const noFiles: Why = { conversation: null, files: 'no checkpoint' };
const noConversation: Why = { conversation: 'nothing to return to', files: null };

function menu(why: Why = all): RewindMenuState {
  const state = openRewindMenu('undo', 'edit a', why);
  if (state === null) throw new Error('no menu');
  return state;
}

describe('the rewind menu', () => {
  it('opens on the first choice that can be had, or not at all when none can', () => {
    expect(menu().selected).toBe(0);
    expect(menu(noFiles).selected).toBe(1);
    expect(menu(noConversation).selected).toBe(2);
    expect(openRewindMenu('redo', 'x', { conversation: 'no', files: 'no' })).toBeNull();
  });

  it('"both" needs the conversation and the files', () => {
    const state = menu(noFiles);
    if (state.stage !== 'choose') throw new Error('stage');
    expect(scopeUnavailable(state, 'both')).toBe('no checkpoint');
    expect(scopeUnavailable(state, 'conversation')).toBeNull();
    expect(scopeUnavailable(state, 'files')).toBe('no checkpoint');
  });

  it('↑/↓ skip a choice that cannot be had and stop at the ends', () => {
    let state = menu(noConversation);
    const down = rewindMenuKey(state, key('down'));
    expect(down).toEqual({ type: 'stay', state });
    const up = rewindMenuKey(state, key('up'));
    expect(up).toEqual({ type: 'stay', state });
    state = menu();
    const step = rewindMenuKey(state, key('down'));
    expect(step.type === 'stay' && step.state.selected).toBe(1);
  });

  it('Enter picks the highlighted choice, a digit picks its own', () => {
    expect(rewindMenuKey(menu(), key('enter'))).toEqual({ type: 'pick', scope: 'both' });
    expect(rewindMenuKey(menu(), charKey('2'))).toEqual({ type: 'pick', scope: 'conversation' });
    expect(rewindMenuKey(menu(), charKey('3'))).toEqual({ type: 'pick', scope: 'files' });
  });

  it('a digit of a choice that cannot be had only moves the highlight there; Enter then does nothing', () => {
    const step = rewindMenuKey(menu(noFiles), charKey('3'));
    expect(step.type).toBe('stay');
    if (step.type !== 'stay') return;
    expect(step.state.selected).toBe(2);
    expect(rewindMenuKey(step.state, key('enter'))).toEqual({ type: 'stay', state: step.state });
  });

  it('Esc, q and Ctrl+C cancel', () => {
    for (const e of [key('escape'), charKey('q'), charKey('c', { ctrl: true })]) {
      expect(rewindMenuKey(menu(), e)).toEqual({ type: 'cancel' });
    }
  });

  it('the overwrite stage: Enter or 1 overwrites with the scope picked, 2 or Esc cancels', () => {
    const ask = askOverwrite(menu(), 'files', ['/w/a.txt']);
    expect(ask).toMatchObject({ stage: 'overwrite', scope: 'files', paths: ['/w/a.txt'], selected: 0, subject: 'edit a' });
    expect(rewindMenuKey(ask, key('enter'))).toEqual({ type: 'overwrite', scope: 'files' });
    expect(rewindMenuKey(ask, charKey('1'))).toEqual({ type: 'overwrite', scope: 'files' });
    expect(rewindMenuKey(ask, charKey('2'))).toEqual({ type: 'cancel' });
    expect(rewindMenuKey(ask, key('escape'))).toEqual({ type: 'cancel' });
    const down = rewindMenuKey(ask, key('down'));
    expect(down.type === 'stay' && rewindMenuKey(down.state, key('enter'))).toEqual({ type: 'cancel' });
  });
});

describe('the rewind menu rows', () => {
  it('names the turn, marks the highlight and dims a choice that cannot be had, with why', () => {
    const rows = rewindMenuLines(menu(noFiles), 80, '/w', plain);
    expect(rows[0]).toBe('Rewind to before “edit a”');
    expect(rows).toContain('  1. Rewind the conversation and the files (no checkpoint)');
    expect(rows).toContain('▸ 2. Rewind the conversation only');
    expect(rows).toContain('  3. Rewind the files only (no checkpoint)');
  });

  it('lists the files changed outside Tiller relative to the directory, wrapped, never cut, control characters made harmless', () => {
    const long = `/w/${'d/'.repeat(30)}file.txt`;
    const rows = rewindMenuLines(askOverwrite(menu(), 'both', ['/w/a.txt', '/elsewhere/b\x1b[2Jc.txt', long]), 30, '/w', plain);
    expect(rows.join('\n')).toContain(OVERWRITE_TITLE.slice(0, 20));
    expect(rows).toContain('  a.txt');
    expect(rows.join('\n')).not.toContain('\x1b');
    expect(rows.every((r) => r.length <= 30)).toBe(true);
    expect(rows).toContain('  2. Cancel (nothing is');
    expect(rows.join('').replace(/\s/g, '')).toContain(`${'d/'.repeat(30)}file.txt`);
    expect(rows).toContain('▸ 1. Overwrite them');
  });

  it('shows a path outside the directory as it is', () => {
    expect(shownPath('/w/x/y.txt', '/w')).toBe('x/y.txt');
    expect(shownPath('/other/y.txt', '/w')).toBe('/other/y.txt');
  });
});

describe('the redo title', () => {
  it('names the prompt of the undo, or none after a restart', () => {
    const named = openRewindMenu('redo', 'edit a', { conversation: null, files: null })!;
    expect(rewindMenuLines(named, 80, '/w', plain)[0]).toBe('Redo what the last undo took back (“edit a”)');
    const unnamed = openRewindMenu('redo', '', { conversation: 'none', files: null })!;
    expect(rewindMenuLines(unnamed, 80, '/w', plain)[0]).toBe('Redo what the last undo took back');
  });
});
