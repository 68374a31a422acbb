import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  filteredRows,
  fuzzyMatch,
  openResumePicker,
  relativeTime,
  resumePickerKey,
  resumePickerLines,
  resumePickerPaste,
  resumeRow,
  shortDirectory,
  sortRows,
  type ResumePickerState,
  type ResumeRow,
} from '../../../../src/tui/chat/sessions/resume-picker.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import { fakeThread } from '../fake-client.js';

const plain = new Chalk({ level: 0 });
const NOW = 1_700_000_000_000;
const row = (id: string, preview: string, updatedAt: number, extra: Partial<ResumeRow> = {}): ResumeRow => ({
  id,
  preview,
  cwd: '/home/u/app',
  updatedAt,
  turns: 3,
  exec: false,
  forkedFrom: null,
  ...extra,
});

function picker(rows: ResumeRow[] | null, extra: Partial<ResumePickerState> = {}): ResumePickerState {
  return { ...openResumePicker(false), rows, ...extra };
}

describe('rows from thread/list', () => {
  it('take the preview on one line, the update time (else the creation time) and a turn count when there is one', () => {
    const thread = fakeThread('a', { preview: 'fix\n  the   build', cwd: '/w', createdAt: 10, updatedAt: 0 });
    expect(resumeRow(thread)).toEqual({
      id: 'a',
      preview: 'fix the build',
      cwd: '/w',
      updatedAt: 10,
      turns: null,
      exec: false,
      forkedFrom: null,
    });
    expect(resumeRow({ ...thread, updatedAt: 20, tillerTurnCount: 4 }).turns).toBe(4);
    expect(resumeRow({ ...thread, source: 'exec', forkedFromId: 'orig' })).toMatchObject({ exec: true, forkedFrom: 'orig' });
  });

  it('sort newest first, keeping the server order for equal times', () => {
    const rows = [row('a', '', 1), row('b', '', 3), row('c', '', 3), row('d', '', 2)];
    expect(sortRows(rows).map((r) => r.id)).toEqual(['b', 'c', 'd', 'a']);
  });
});

describe('fuzzy search over the first message', () => {
  it('matches the query characters in order, any case; a contiguous run ranks first', () => {
    expect(fuzzyMatch('Fix the build', 'fxb')).not.toBeNull();
    expect(fuzzyMatch('Fix the build', 'bxf')).toBeNull();
    expect(fuzzyMatch('Fix the build', 'THE')).toEqual({ score: 996, indices: [4, 5, 6] });
    expect(fuzzyMatch('anything', '')).toEqual({ score: 0, indices: [] });
    const rows = [row('scattered', 'build a thing here', 5), row('run', 'the thing', 1), row('none', 'unrelated', 9)];
    expect(filteredRows({ rows, query: 'thing' }).map((r) => r.id)).toEqual(['run', 'scattered']);
    expect(filteredRows({ rows, query: 'bth' }).map((r) => r.id)).toEqual(['scattered']);
    expect(filteredRows({ rows, query: '  ' }).map((r) => r.id)).toEqual(['scattered', 'run', 'none']);
  });
});

describe('picker keys', () => {
  const rows = [row('a', 'alpha', 3), row('b', 'beta', 2), row('c', 'gamma', 1)];

  it('move with ↑/↓, PgUp/PgDn, Home/End within the list', () => {
    let s = picker(rows);
    const stay = (step: ReturnType<typeof resumePickerKey>): ResumePickerState => {
      if (step.type !== 'stay') throw new Error(step.type);
      return step.state;
    };
    s = stay(resumePickerKey(s, key('down')));
    s = stay(resumePickerKey(s, key('down')));
    s = stay(resumePickerKey(s, key('down')));
    expect(s.selected).toBe(2);
    expect(stay(resumePickerKey(s, key('home'))).selected).toBe(0);
    expect(stay(resumePickerKey(s, key('up'))).selected).toBe(1);
    expect(stay(resumePickerKey(picker(rows), key('pagedown'))).selected).toBe(2);
    expect(stay(resumePickerKey(picker(rows), charKey('n', { ctrl: true }))).selected).toBe(1);
  });

  it('typing searches (the highlight goes to the best match), Backspace and Ctrl+U unsearch, a paste searches too', () => {
    let step = resumePickerKey(picker(rows, { selected: 2 }), charKey('e'));
    expect(step).toMatchObject({ type: 'stay', state: { query: 'e', selected: 0 } });
    step = resumePickerKey((step as { state: ResumePickerState }).state, charKey('t'));
    expect(filteredRows((step as { state: ResumePickerState }).state).map((r) => r.id)).toEqual(['b']);
    expect(resumePickerKey(picker(rows, { query: 'et' }), key('backspace'))).toMatchObject({ state: { query: 'e' } });
    expect(resumePickerKey(picker(rows, { query: 'et' }), charKey('u', { ctrl: true }))).toMatchObject({ state: { query: '' } });
    expect(resumePickerPaste(picker(rows), 'gam\nma').query).toBe('gam ma');
  });

  it('Enter resumes the highlighted thread of the filtered list; Esc and Ctrl+C cancel; Enter on no match stays', () => {
    expect(resumePickerKey(picker(rows, { query: 'gam' }), key('enter'))).toEqual({ type: 'resume', threadId: 'c' });
    expect(resumePickerKey(picker(rows, { query: 'zzz' }), key('enter'))).toMatchObject({ type: 'stay' });
    expect(resumePickerKey(picker(null), key('enter'))).toMatchObject({ type: 'stay' });
    expect(resumePickerKey(picker(rows), key('escape'))).toEqual({ type: 'cancel' });
    expect(resumePickerKey(picker(rows), charKey('c', { ctrl: true }))).toEqual({ type: 'cancel' });
  });
});

describe('picker lines', () => {
  const ctx = { width: 100, maxRows: 12, nowMs: NOW, home: '/home/u', currentThreadId: 'b' };

  it('relative times and directories under home', () => {
    const s = NOW / 1000;
    expect([relativeTime(s - 5, NOW), relativeTime(s - 60, NOW), relativeTime(s - 7200, NOW), relativeTime(s - 86_400 * 3, NOW)]).toEqual([
      'just now',
      '1 minute ago',
      '2 hours ago',
      '3 days ago',
    ]);
    expect(relativeTime(s - 86_400 * 60, NOW)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shortDirectory('/home/u/app', '/home/u')).toBe('~/app');
    expect(shortDirectory('/home/user2', '/home/u')).toBe('/home/user2');
  });

  it('a title, the search field, column heads and one row per thread, the highlighted one marked', () => {
    const s = NOW / 1000;
    const lines = resumePickerLines(
      picker([row('a', 'fix the build', s - 120, { turns: 1 }), row('b', 'write docs', s - 7200)], { selected: 0, query: '' }),
      ctx,
      plain,
    );
    expect(lines[0]).toBe('Resume a previous session');
    expect(lines[1]).toBe('  search:  ');
    expect(lines[3]).toMatch(/^ {2}Updated +Turns +Directory +First message$/);
    expect(lines[4]).toMatch(/^▸ 2 minutes ago +1 turn +~\/app +fix the build$/);
    expect(lines[5]).toMatch(/^ {2}2 hours ago +3 turns +~\/app +write docs \(current\)$/);
    expect(lines[6]).toBe('  session a');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('marks tiller exec runs, and says what a fork was forked from (a fork and its original look alike otherwise)', () => {
    const s = NOW / 1000;
    const rows = [
      row('fork-1', 'fix the build', s - 60, { forkedFrom: 'orig-1' }),
      row('orig-1', 'fix the build', s - 7200),
      row('run-1', 'lint it', s - 10_800, { exec: true }),
      row('fork-2', 'gone', s - 14_400, { forkedFrom: '0199aaaa-bbbb-7ccc-8ddd-eeeeffff0000' }),
    ];
    const lines = resumePickerLines(picker(rows, { selected: 0 }), { ...ctx, maxRows: 20 }, plain);
    expect(lines[4]).toMatch(/ \[fork of …orig-1\] fix the build$/);
    expect(lines[5]).toMatch(/ {2}fix the build$/);
    expect(lines[6]).toMatch(/ \[exec\] lint it$/);
    expect(lines[7]).toMatch(/ \[fork of …ffff0000\] gone$/);
    expect(lines.at(-1)).toBe('  session fork-1, forked from orig-1 (2 hours ago)');
    const exec = resumePickerLines(picker(rows, { selected: 2 }), { ...ctx, maxRows: 20 }, plain);
    expect(exec.at(-1)).toBe('  session run-1, a tiller exec run');
  });

  it('says when it is loading, empty, failed or nothing matches; a long list shows a window and where it is', () => {
    expect(resumePickerLines(picker(null), ctx, plain).at(-1)).toBe('  Loading the saved sessions…');
    expect(resumePickerLines(picker([]), ctx, plain).at(-1)).toBe('  No saved sessions yet.');
    expect(resumePickerLines(picker(null, { error: 'boom' }), ctx, plain).at(-1)).toBe('  boom');
    expect(resumePickerLines(picker([row('a', 'x', 1)], { query: 'zz' }), ctx, plain).at(-1)).toBe('  No session matches the search.');
    const many = Array.from({ length: 40 }, (_, i) => row(`t${i}`, `message ${i}`, 1000 - i));
    const lines = resumePickerLines(picker(many, { selected: 30 }), ctx, plain);
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines.some((l) => l.startsWith('▸ ') && l.endsWith('message 30'))).toBe(true);
    expect(lines.at(-2)).toMatch(/^ {2}\d+–31 of 40$/);
    expect(lines.at(-1)).toBe('  session t30');
  });
});
