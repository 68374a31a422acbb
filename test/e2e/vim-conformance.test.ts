/**
 * The whole Vim conformance table (test/tui/composer/vim-conformance-cases.ts) typed into the real
 * bin in a pseudo-terminal, so the reducer and the app cannot disagree (issue 30: `;` worked in the
 * reducer's tests and not in the app). One process for all cases: each one clears the draft, loads
 * its buffer (two bracketed pastes around the caret), types its keys one by one and reads the draft,
 * the caret and the mode back off the screen.
 *
 * A session remembers what a fresh composer does not: the registers and the undo steps of the loading
 * pastes. The same keys run through the reducer beside the app (`mirror`); where that differs from
 * the table, only because of what earlier cases left, the screen is held to the mirror instead.
 */
import { describe, expect, it } from 'vitest';
import stringWidth from '../../src/tui/string-width.js';
import { key } from '../../src/tui/keys/types.js';
import { TABLE, type Case } from '../tui/composer/vim-conformance-cases.js';
import { VimRun, vimDraft } from '../tui/composer/vim-harness.js';
import { sessionPerTest, typeSlowly } from './helpers.js';
import type { TillerPty } from '../support/pty.js';

const openSession = sessionPerTest();

/** Escape as the kitty keyboard protocol sends it: no wait to tell it from Alt+key. */
const ESC = '\x1b[27u';
const RAW: Record<string, string> = {
  '<Esc>': ESC,
  '<CR>': '\r',
  '<C-r>': '\x12',
  '<Tab>': '\t',
  '<BS>': '\x7f',
  '<Del>': '\x1b[3~',
  '<Up>': '\x1b[A',
  '<Down>': '\x1b[B',
  '<Left>': '\x1b[D',
  '<Right>': '\x1b[C',
  '<lt>': '<',
};
const MODE_NAMES: Record<string, string> = { normal: 'Normal', insert: 'Insert', visual: 'Visual', 'visual-line': 'Visual Line' };
/** Apart by more than the paste-burst detector's 8 ms, so typing in Insert mode is typing. */
const KEY_GAP_MS = 12;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `d2w<Esc>` as the bytes a terminal sends, one entry per key. */
function rawKeys(keys: string): string[] {
  const out: string[] = [];
  const gs = Array.from(segmenter.segment(keys), (s) => s.segment);
  for (let i = 0; i < gs.length; i++) {
    if (gs[i] === '<') {
      const close = gs.indexOf('>', i);
      const named = close > i ? RAW[gs.slice(i, close + 1).join('')] : undefined;
      if (named !== undefined) {
        out.push(named);
        i = close;
        continue;
      }
    }
    out.push(gs[i]!);
  }
  return out;
}

/**
 * The draft with `|` at the real cursor, and the footer's Vim mode, as on screen. The screen's rows
 * lose their trailing spaces, so both sides are compared without them (`trimMarked`).
 */
function readScreen(pty: TillerPty): { marked: string; mode: string } {
  const lines = pty.lines();
  let footer = lines.length - 1;
  while (footer > 0 && lines[footer]!.trim() === '') footer--;
  let top = footer;
  while (top > 0 && !lines[top]!.startsWith('›')) top--;
  const rows = lines
    .slice(top, Math.max(top + 1, footer - 1))
    .map((row, i) => (i === 0 ? row.replace(/^› ?/, '') : row.replace(/^ {2}/, '')));
  const text = rows.length === 1 && rows[0] === 'Ask Tiller to do anything' ? [''] : rows;
  const { x, y } = pty.cursor();
  const row = Math.min(Math.max(0, y - top), text.length - 1);
  let line = text[row]!;
  let offset = 0;
  let col = 0;
  for (const { segment } of segmenter.segment(line)) {
    if (col >= x - 2) break;
    col += stringWidth(segment);
    offset += segment.length;
  }
  if (col < x - 2) line += ' '.repeat(x - 2 - col);
  offset += Math.max(0, x - 2 - col);
  text[row] = `${line.slice(0, offset)}|${line.slice(offset)}`;
  const mode = /Vim: (Normal|Insert|Visual Line|Visual)/.exec(lines[footer]!)?.[1] ?? '?';
  return { marked: trimMarked(text.join('\n')), mode };
}

/** Each row without its trailing spaces, except those before the caret. */
function trimMarked(marked: string): string {
  return marked
    .split('\n')
    .map((row) => (row.includes('|') ? row.replace(/(?<=\|.*) +$/, '') : row.trimEnd()))
    .join('\n');
}

/** Loads `buffer` (caret at `|`, else at the start) into an empty Normal-mode draft: the raw writes and the same as events. */
function loading(buffer: string): { raw: string; run(mirror: VimRun): void } {
  const at = Math.max(0, buffer.indexOf('|'));
  const before = buffer.slice(0, at);
  const after = buffer.slice(at).replace(/^\|/, '');
  const paste = (t: string): string => `\x1b[200~${t}\x1b[201~`;
  let raw = `i${after === '' ? '' : paste(after)}${ESC}gg0`;
  // Esc leaves Insert mode one character left, so `l` steps back, except at a line's start.
  if (before !== '') raw += `i${paste(before)}${ESC}${before.endsWith('\n') ? '' : 'l'}`;
  return {
    raw,
    run(mirror) {
      mirror.keys('i');
      if (after !== '') mirror.send({ type: 'paste', text: after });
      mirror.send(key('escape')).keys('gg0');
      if (before === '') return;
      mirror.keys('i').send({ type: 'paste', text: before }).send(key('escape'));
      if (!before.endsWith('\n')) mirror.keys('l');
    },
  };
}

describe('the Vim conformance table in the terminal', { timeout: 120_000 }, () => {
  it('every case gives on screen what it gives in the reducer', async () => {
    const { pty, server } = await openSession({ cols: 120, rows: 30 });
    await typeSlowly(pty, '/vim');
    pty.press('enter');
    await pty.waitFor('Vim: Normal');
    const mirror = new VimRun(vimDraft(''));
    const cases: Case[] = Object.values(TABLE).flat();
    const failures: string[] = [];
    const fromSession: string[] = [];
    for (const [buffer, keys, expected, extra] of cases) {
      if (readScreen(pty).mode !== 'Normal') {
        pty.write(ESC);
        mirror.send(key('escape'));
      }
      if (readScreen(pty).marked !== '|') {
        // Into the black-hole register: the registers stay as the last case left them.
        pty.write('gg"_dG');
        mirror.keys('gg"_dG');
      }
      const load = loading(buffer);
      pty.write(load.raw);
      load.run(mirror);
      for (const k of rawKeys(keys)) {
        pty.write(k);
        await sleep(KEY_GAP_MS);
      }
      mirror.keys(keys);
      const want = { marked: trimMarked(expected), mode: MODE_NAMES[extra?.mode ?? 'normal']! };
      if (trimMarked(mirror.marked) !== want.marked || mirror.mode !== (extra?.mode ?? 'normal')) {
        fromSession.push(`${buffer} ${keys}`);
        want.marked = trimMarked(mirror.marked);
        want.mode = MODE_NAMES[mirror.mode]!;
      }
      const same = (): boolean => {
        const got = readScreen(pty);
        return got.marked === want.marked && got.mode === want.mode;
      };
      await pty.waitFor(same, 1_500).catch(() => undefined);
      if (!same()) {
        const got = readScreen(pty);
        failures.push(
          `${JSON.stringify(buffer)} ${keys}: want ${JSON.stringify(want.marked)} ${want.mode}, screen ${JSON.stringify(got.marked)} ${got.mode}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // Only these depend on the session: a put from a register a fresh composer has empty, and an
    // undo past the case's own start (into the pastes that loaded it).
    expect(fromSession).toEqual(['|foo bar "_dwP', '|abc p', '|abc ixy<Esc>uu', '|abc vlduu']);
    expect(server.requests).toHaveLength(0);
  });
});
