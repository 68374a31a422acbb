import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { composerView } from '../../src/tui/components/composer-view.js';
import { composerReducer, initialComposerState } from '../../src/tui/composer/reducer.js';
import type { ComposerEvent } from '../../src/tui/composer/types.js';
import { charKey } from '../../src/tui/keys/types.js';
import { padToWidth, truncateToWidth } from '../../src/tui/text-width.js';

describe('truncateToWidth', () => {
  it('cuts CJK by display width, never past it', () => {
    const cut = truncateToWidth('中文文件名很长很长很长.txt', 9);
    expect(stringWidth(cut)).toBeLessThanOrEqual(9);
    expect(cut).toBe('中文文件…');
  });

  it('keeps an emoji ZWJ sequence and combining marks whole', () => {
    const family = '👨‍👩‍👧';
    expect(truncateToWidth(`ab${family}cd`, 5)).toBe(`ab${family}…`);
    expect(truncateToWidth(`ab${family}cd`, 4)).toBe('ab…');
    const accented = 'e\u0301e\u0301e\u0301e\u0301';
    expect(truncateToWidth(accented, 3)).toBe('e\u0301e\u0301…');
  });

  it('leaves text that fits, and pads by cells', () => {
    expect(truncateToWidth('short', 10)).toBe('short');
    expect(truncateToWidth('anything', 0)).toBe('');
    expect(padToWidth('中', 4)).toBe('中  ');
    expect(padToWidth('abc', 2)).toBe('abc');
  });
});

describe('popup rows fit the window', () => {
  it('an @ popup row for a CJK file name is at most as wide as a 30-column window', () => {
    let state = initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true });
    let now = 0;
    for (const ch of '@中') state = composerReducer(state, charKey(ch) as ComposerEvent, (now += 50)).state;
    const paths = ['文档/中文文件名非常长的一个文件名字.md', 'src/中文/很长的路径名字再长一点.ts'];
    state = composerReducer(state, { type: 'fileSearchResult', query: '中', paths } as ComposerEvent, (now += 50)).state;
    const rows = composerView(state, 30, new Chalk({ level: 1 })).popupRows;
    expect(rows.length).toBe(2);
    for (const row of rows) expect(stringWidth(stripAnsi(row))).toBeLessThanOrEqual(30);
  });
});
