import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ChatComposerHistory,
  HistoryFile,
  historyEntryFromText,
  historyFilePath,
  parseHistoryLine,
  type HistoryEntry,
} from '../../src/tui/composer/history.js';
import type { Attachment } from '../../src/tui/composer/types.js';
import { tillerHome } from '../../src/runtime/config.js';

function history(persistent: string[] = []): ChatComposerHistory {
  return new ChatComposerHistory<HistoryEntry>({ fromText: historyEntryFromText, persistent });
}

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

describe('ChatComposerHistory navigation', () => {
  it('does not navigate without history', () => {
    const h = history();
    expect(h.shouldHandleNavigation('', 0)).toBe(false);
    expect(h.navigateUp()).toBeNull();
    expect(h.navigateDown()).toBeNull();
  });

  it('walks up through local then persistent entries, down past the newest to an empty draft', () => {
    const h = history(['old1', 'old2']);
    h.recordLocalSubmission(historyEntryFromText('new1'));
    h.recordLocalSubmission(historyEntryFromText('new2'));
    expect(h.navigateUp()?.text).toBe('new2');
    expect(h.isBrowsing()).toBe(true);
    expect(h.navigateUp()?.text).toBe('new1');
    expect(h.navigateUp()?.text).toBe('old2');
    expect(h.navigateUp()?.text).toBe('old1');
    expect(h.navigateUp()).toBeNull();
    expect(h.navigateDown()?.text).toBe('old2');
    expect(h.navigateDown()?.text).toBe('new1');
    expect(h.navigateDown()?.text).toBe('new2');
    expect(h.navigateDown()).toEqual(historyEntryFromText(''));
    expect(h.isBrowsing()).toBe(false);
    expect(h.navigateDown()).toBeNull();
  });

  it('handles navigation at line boundaries only while the recalled text is unchanged', () => {
    const h = history();
    h.recordLocalSubmission(historyEntryFromText('héllo'));
    expect(h.shouldHandleNavigation('', 0)).toBe(true);
    expect(h.shouldHandleNavigation('typed', 5)).toBe(false);
    const e = h.navigateUp();
    expect(e?.text).toBe('héllo');
    const bytes = Buffer.byteLength('héllo');
    expect(bytes).toBe(6);
    expect(h.shouldHandleNavigation('héllo', 0)).toBe(true);
    expect(h.shouldHandleNavigation('héllo', bytes)).toBe(true);
    expect(h.shouldHandleNavigation('héllo', 5)).toBe(false);
    expect(h.shouldHandleNavigation('héllo', 5, 'utf16')).toBe(true);
    expect(h.shouldHandleNavigation('héllo', 2)).toBe(false);
    expect(h.shouldHandleNavigation('héllo!', 7)).toBe(false);
  });

  it('does not record empty entries or consecutive duplicates', () => {
    const h = history();
    h.recordLocalSubmission(historyEntryFromText(''));
    expect(h.length).toBe(0);
    h.recordLocalSubmission(historyEntryFromText('a'));
    h.recordLocalSubmission(historyEntryFromText('a'));
    h.recordLocalSubmission(historyEntryFromText('b'));
    h.recordLocalSubmission(historyEntryFromText('a'));
    expect(h.length).toBe(3);
    expect([0, 1, 2].map((i) => h.entryAt(i)?.text)).toEqual(['a', 'b', 'a']);
  });

  it('records an image-only draft (empty text) and restores its attachments', () => {
    const h = history(['persisted']);
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
    h.recordLocalSubmission(imageOnly);
    h.recordLocalSubmission(withPaste);
    expect(h.navigateUp()).toEqual(withPaste);
    expect(h.navigateUp()).toEqual(imageOnly);
    expect(h.navigateUp()).toEqual(historyEntryFromText('persisted'));
  });

  it('a draft differing only in attachments is not a duplicate', () => {
    const h = history();
    h.recordLocalSubmission({ text: 'x', textElements: [], attachments: [], pendingPastes: [] });
    h.recordLocalSubmission({ text: 'x', textElements: [], attachments: [image], pendingPastes: [] });
    expect(h.length).toBe(2);
  });

  it('recording resets navigation', () => {
    const h = history();
    h.recordLocalSubmission(historyEntryFromText('a'));
    h.navigateUp();
    h.recordLocalSubmission(historyEntryFromText('b'));
    expect(h.isBrowsing()).toBe(false);
    expect(h.shouldHandleNavigation('a', 0)).toBe(false);
    expect(h.navigateUp()?.text).toBe('b');
  });

  it('persistent entries arriving later are older than local ones', () => {
    const h = history();
    h.recordLocalSubmission(historyEntryFromText('local'));
    h.setPersistentEntries(['p1']);
    expect(h.navigateUp()?.text).toBe('local');
    expect(h.navigateUp()?.text).toBe('p1');
  });
});

describe('ChatComposerHistory Ctrl+R search', () => {
  function seeded(): ChatComposerHistory {
    const h = history(['git status', 'npm test']);
    for (const t of ['git log', 'echo hi', 'GIT diff', 'git log']) h.recordLocalSubmission(historyEntryFromText(t));
    return h;
  }

  it('finds the newest match case-insensitively, older on repeat, skipping equal texts', () => {
    const h = seeded();
    const draft = historyEntryFromText('my draft');
    h.startSearch(draft);
    expect(h.isSearching()).toBe(true);
    const first = h.setSearchQuery('git');
    expect(first?.entry.text).toBe('git log');
    expect(first?.index).toBe(5);
    expect(h.searchOlder()?.entry.text).toBe('GIT diff');
    // 'git log' at index 2 equals nothing current ('GIT diff'), so it is found again.
    expect(h.searchOlder()?.entry.text).toBe('git log');
    expect(h.searchOlder()?.entry.text).toBe('git status');
    expect(h.searchOlder()).toBeNull();
    expect(h.currentSearchMatch()?.entry.text).toBe('git status');
    expect(h.searchNewer()?.entry.text).toBe('git log');
    expect(h.searchNewer()?.entry.text).toBe('GIT diff');
  });

  it('skips an identical text on repeated Ctrl+R', () => {
    const h = history();
    for (const t of ['alpha 1', 'alpha 2', 'alpha 2']) h.recordLocalSubmission(historyEntryFromText(t));
    h.recordLocalSubmission(historyEntryFromText('x'));
    h.recordLocalSubmission(historyEntryFromText('alpha 2'));
    h.startSearch(historyEntryFromText(''));
    expect(h.setSearchQuery('alpha')?.entry.text).toBe('alpha 2');
    expect(h.searchOlder()?.entry.text).toBe('alpha 1');
  });

  it('reports the match position', () => {
    const h = seeded();
    h.startSearch(historyEntryFromText(''));
    expect(h.setSearchQuery('diff')?.matchStart).toBe(4);
  });

  it('narrowing the query searches from the newest again', () => {
    const h = seeded();
    h.startSearch(historyEntryFromText(''));
    h.setSearchQuery('g');
    h.searchOlder();
    expect(h.setSearchQuery('npm')?.entry.text).toBe('npm test');
    expect(h.setSearchQuery('nomatch')).toBeNull();
    expect(h.setSearchQuery('')).toBeNull();
  });

  it('Enter accepts the match as the draft and navigation continues from it', () => {
    const h = seeded();
    h.startSearch(historyEntryFromText('draft'));
    h.setSearchQuery('echo');
    expect(h.acceptSearch()?.text).toBe('echo hi');
    expect(h.isSearching()).toBe(false);
    expect(h.shouldHandleNavigation('echo hi', 0)).toBe(true);
  });

  it('Enter without a match gives the pre-search draft back', () => {
    const h = seeded();
    const draft = historyEntryFromText('draft');
    h.startSearch(draft);
    h.setSearchQuery('zzz');
    expect(h.acceptSearch()).toBe(draft);
  });

  it('Esc restores the pre-search draft', () => {
    const h = seeded();
    const draft: HistoryEntry = { text: 'keep [Image #1]', textElements: [], attachments: [image], pendingPastes: [] };
    h.startSearch(draft);
    h.setSearchQuery('git');
    expect(h.cancelSearch()).toBe(draft);
    expect(h.isSearching()).toBe(false);
    expect(h.cancelSearch()).toBeNull();
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
    expect(h.navigateUp()?.text).toBe('multi\nline "quoted" 你好');
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
