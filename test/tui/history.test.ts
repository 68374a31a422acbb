import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acceptSearch,
  cancelSearch,
  currentSearchMatch,
  entryAt,
  historyEntryFromText,
  historyLength,
  HistoryFile,
  historyFilePath,
  initialHistory,
  isBrowsing,
  isSearching,
  navigateDown,
  navigateUp,
  parseHistoryLine,
  recordLocalSubmission,
  searchNewer,
  searchOlder,
  setPersistentEntries,
  setSearchQuery,
  shouldHandleNavigation,
  startSearch,
  type ComposerHistory,
  type HistoryEntry,
  type SearchMatch,
} from '../../src/tui/composer/history.js';
import type { Attachment } from '../../src/tui/composer/types.js';
import { tillerHome } from '../../src/runtime/config.js';

type History = ComposerHistory<HistoryEntry>;

function history(persistent: string[] = []): History {
  return initialHistory<HistoryEntry>({ fromText: historyEntryFromText, persistent });
}

function record(h: History, ...texts: string[]): History {
  return texts.reduce((acc, t) => recordLocalSubmission(acc, historyEntryFromText(t)), h);
}

/** Runs a history step on `ref.h`, keeps the new value there and returns what the step gave. */
function run<R extends { history: History }>(ref: { h: History }, f: (h: History) => R): R {
  const r = f(ref.h);
  ref.h = r.history;
  return r;
}

const up = (ref: { h: History }): HistoryEntry | null => run(ref, navigateUp).entry;
const down = (ref: { h: History }): HistoryEntry | null => run(ref, navigateDown).entry;
const query = (ref: { h: History }, q: string): SearchMatch<HistoryEntry> | null => run(ref, (h) => setSearchQuery(h, q)).match;
const older = (ref: { h: History }): SearchMatch<HistoryEntry> | null => run(ref, searchOlder).match;
const newer = (ref: { h: History }): SearchMatch<HistoryEntry> | null => run(ref, searchNewer).match;

const image: Attachment = {
  kind: 'image',
  placeholder: '[Image #1]',
  path: '/tmp/cat.png',
  fileName: 'cat.png',
  bytes: 1234,
  width: 10,
  height: 20,
  mime: 'image/png',
};

describe('ComposerHistory navigation', () => {
  it('does not navigate without history', () => {
    const h = history();
    expect(shouldHandleNavigation(h, '', 0)).toBe(false);
    expect(navigateUp(h).entry).toBeNull();
    expect(navigateDown(h).entry).toBeNull();
  });

  it('walks up through local then persistent entries, down past the newest to an empty draft', () => {
    const ref = { h: record(history(['old1', 'old2']), 'new1', 'new2') };
    expect(up(ref)?.text).toBe('new2');
    expect(isBrowsing(ref.h)).toBe(true);
    expect(up(ref)?.text).toBe('new1');
    expect(up(ref)?.text).toBe('old2');
    expect(up(ref)?.text).toBe('old1');
    expect(up(ref)).toBeNull();
    expect(down(ref)?.text).toBe('old2');
    expect(down(ref)?.text).toBe('new1');
    expect(down(ref)?.text).toBe('new2');
    expect(down(ref)).toEqual(historyEntryFromText(''));
    expect(isBrowsing(ref.h)).toBe(false);
    expect(down(ref)).toBeNull();
  });

  it('is a value: a step leaves the history it was given as it was', () => {
    const h = record(history(['old']), 'new');
    const browsed = navigateUp(h).history;
    expect(isBrowsing(browsed)).toBe(true);
    expect(isBrowsing(h)).toBe(false);
    const searching = startSearch(h, historyEntryFromText('draft'));
    expect(isSearching(searching)).toBe(true);
    expect(isSearching(h)).toBe(false);
    expect(historyLength(recordLocalSubmission(h, historyEntryFromText('newer')))).toBe(3);
    expect(historyLength(h)).toBe(2);
  });

  it('handles navigation at line boundaries only while the recalled text is unchanged', () => {
    const ref = { h: record(history(), 'héllo') };
    expect(shouldHandleNavigation(ref.h, '', 0)).toBe(true);
    expect(shouldHandleNavigation(ref.h, 'typed', 5)).toBe(false);
    const e = up(ref);
    expect(e?.text).toBe('héllo');
    const bytes = Buffer.byteLength('héllo');
    expect(bytes).toBe(6);
    expect(shouldHandleNavigation(ref.h, 'héllo', 0)).toBe(true);
    expect(shouldHandleNavigation(ref.h, 'héllo', bytes)).toBe(true);
    expect(shouldHandleNavigation(ref.h, 'héllo', 5)).toBe(false);
    expect(shouldHandleNavigation(ref.h, 'héllo', 5, 'utf16')).toBe(true);
    expect(shouldHandleNavigation(ref.h, 'héllo', 2)).toBe(false);
    expect(shouldHandleNavigation(ref.h, 'héllo!', 7)).toBe(false);
  });

  it('does not record empty entries or consecutive duplicates', () => {
    let h = record(history(), '');
    expect(historyLength(h)).toBe(0);
    h = record(h, 'a', 'a', 'b', 'a');
    expect(historyLength(h)).toBe(3);
    expect([0, 1, 2].map((i) => entryAt(h, i)?.text)).toEqual(['a', 'b', 'a']);
  });

  it('records an image-only draft (empty text) and restores its attachments', () => {
    const imageOnly: HistoryEntry = { text: '', textElements: [], attachments: [image], pendingPastes: [] };
    const withPaste: HistoryEntry = {
      text: 'see [Image #1] and [Pasted Content 1001 chars]',
      textElements: [
        { byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' },
        { byte_range: { start: 19, end: 46 }, placeholder: '[Pasted Content 1001 chars]' },
      ],
      attachments: [image],
      pendingPastes: [{ placeholder: '[Pasted Content 1001 chars]', text: 'x'.repeat(1001) }],
    };
    const ref = { h: recordLocalSubmission(recordLocalSubmission(history(['persisted']), imageOnly), withPaste) };
    expect(up(ref)).toEqual(withPaste);
    expect(up(ref)).toEqual(imageOnly);
    expect(up(ref)).toEqual(historyEntryFromText('persisted'));
  });

  it('a draft differing only in attachments is not a duplicate', () => {
    let h = recordLocalSubmission(history(), { text: 'x', textElements: [], attachments: [], pendingPastes: [] });
    h = recordLocalSubmission(h, { text: 'x', textElements: [], attachments: [image], pendingPastes: [] });
    expect(historyLength(h)).toBe(2);
  });

  it('recording resets navigation', () => {
    const ref = { h: record(history(), 'a') };
    up(ref);
    ref.h = record(ref.h, 'b');
    expect(isBrowsing(ref.h)).toBe(false);
    expect(shouldHandleNavigation(ref.h, 'a', 0)).toBe(false);
    expect(up(ref)?.text).toBe('b');
  });

  it('persistent entries arriving later are older than local ones', () => {
    const ref = { h: setPersistentEntries(record(history(), 'local'), ['p1']) };
    expect(up(ref)?.text).toBe('local');
    expect(up(ref)?.text).toBe('p1');
  });
});

describe('ComposerHistory Ctrl+R search', () => {
  function seeded(): History {
    return record(history(['git status', 'npm test']), 'git log', 'echo hi', 'GIT diff', 'git log');
  }

  it('finds the newest match case-insensitively, older on repeat, skipping equal texts', () => {
    const draft = historyEntryFromText('my draft');
    const ref = { h: startSearch(seeded(), draft) };
    expect(isSearching(ref.h)).toBe(true);
    const first = query(ref, 'git');
    expect(first?.entry.text).toBe('git log');
    expect(first?.index).toBe(5);
    expect(older(ref)?.entry.text).toBe('GIT diff');
    // 'git log' at index 2 equals nothing current ('GIT diff'), so it is found again.
    expect(older(ref)?.entry.text).toBe('git log');
    expect(older(ref)?.entry.text).toBe('git status');
    expect(older(ref)).toBeNull();
    expect(currentSearchMatch(ref.h)?.entry.text).toBe('git status');
    expect(newer(ref)?.entry.text).toBe('git log');
    expect(newer(ref)?.entry.text).toBe('GIT diff');
  });

  it('skips an identical text on repeated Ctrl+R', () => {
    const h = record(history(), 'alpha 1', 'alpha 2', 'alpha 2', 'x', 'alpha 2');
    const ref = { h: startSearch(h, historyEntryFromText('')) };
    expect(query(ref, 'alpha')?.entry.text).toBe('alpha 2');
    expect(older(ref)?.entry.text).toBe('alpha 1');
  });

  it('reports the match position', () => {
    const ref = { h: startSearch(seeded(), historyEntryFromText('')) };
    expect(query(ref, 'diff')?.matchStart).toBe(4);
  });

  it('narrowing the query searches from the newest again', () => {
    const ref = { h: startSearch(seeded(), historyEntryFromText('')) };
    query(ref, 'g');
    older(ref);
    expect(query(ref, 'npm')?.entry.text).toBe('npm test');
    expect(query(ref, 'nomatch')).toBeNull();
    expect(query(ref, '')).toBeNull();
  });

  it('Enter accepts the match as the draft and navigation continues from it', () => {
    const ref = { h: startSearch(seeded(), historyEntryFromText('draft')) };
    query(ref, 'echo');
    expect(run(ref, acceptSearch).entry?.text).toBe('echo hi');
    expect(isSearching(ref.h)).toBe(false);
    expect(shouldHandleNavigation(ref.h, 'echo hi', 0)).toBe(true);
  });

  it('Enter without a match gives the pre-search draft back', () => {
    const draft = historyEntryFromText('draft');
    const ref = { h: startSearch(seeded(), draft) };
    query(ref, 'zzz');
    expect(run(ref, acceptSearch).entry).toBe(draft);
  });

  it('Esc restores the pre-search draft', () => {
    const draft: HistoryEntry = { text: 'keep [Image #1]', textElements: [], attachments: [image], pendingPastes: [] };
    const ref = { h: startSearch(seeded(), draft) };
    query(ref, 'git');
    expect(run(ref, cancelSearch).entry).toBe(draft);
    expect(isSearching(ref.h)).toBe(false);
    expect(run(ref, cancelSearch).entry).toBeNull();
  });
});

describe('HistoryFile persistence', () => {
  let home: string | null = null;
  afterEach(async () => {
    if (home) await rm(home, { recursive: true, force: true });
    home = null;
  });

  it('round-trips appended texts across sessions in $TILLER_HOME/history.jsonl', async () => {
    home = await mkdtemp(join(tmpdir(), 'tiller-history-'));
    const path = historyFilePath(tillerHome({ TILLER_HOME: join(home, 'nested') }));
    expect(path).toBe(join(home, 'nested', 'history.jsonl'));
    const first = new HistoryFile(path, () => 1700000000);
    expect(await first.loadRecent()).toEqual([]);
    void first.append('hello');
    void first.append('multi\nline "quoted" 你好');
    await first.flush();
    // The first session's own appends are not "persistent" for it.
    expect(await first.loadRecent()).toEqual([]);
    const raw = await readFile(path, 'utf8');
    expect(raw.split('\n')[0]).toBe('{"ts":1700000000,"text":"hello"}');

    const second = new HistoryFile(path);
    expect(await second.loadRecent()).toEqual(['hello', 'multi\nline "quoted" 你好']);
    const h = history(await second.loadRecent());
    expect(navigateUp(h).entry?.text).toBe('multi\nline "quoted" 你好');
  });

  it('loads only the last 1000 entries of a long file and skips malformed lines', async () => {
    home = await mkdtemp(join(tmpdir(), 'tiller-history-'));
    const path = historyFilePath(home);
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      lines.push(JSON.stringify({ ts: i, text: `entry ${i} ${'p'.repeat(i % 50)}` }));
      if (i === 2500) lines.push('{"broken');
    }
    await writeFile(path, `${lines.join('\n')}\n`);
    const texts = await new HistoryFile(path).loadRecent();
    expect(texts).toHaveLength(999);
    expect(texts[0]).toBe(`entry 2001 ${'p'.repeat(2001 % 50)}`);
    expect(texts[texts.length - 1]).toBe(`entry 2999 ${'p'.repeat(2999 % 50)}`);
    expect(await new HistoryFile(path).loadRecent(5)).toHaveLength(5);
  });

  it('a missing file yields no entries and appends create it', async () => {
    home = await mkdtemp(join(tmpdir(), 'tiller-history-'));
    const path = historyFilePath(home);
    const f = new HistoryFile(path);
    await f.append('x');
    expect(await new HistoryFile(path).loadRecent()).toEqual(['x']);
  });

  it('parseHistoryLine accepts only objects with a text string', () => {
    expect(parseHistoryLine('{"ts":1,"text":"a"}')).toBe('a');
    expect(parseHistoryLine('{"ts":1}')).toBeNull();
    expect(parseHistoryLine('nope')).toBeNull();
    expect(parseHistoryLine('')).toBeNull();
  });
});
