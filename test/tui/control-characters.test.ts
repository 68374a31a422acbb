import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { cellLines, footerLine, previewRows, statusLines } from '../../src/tui/components/lines.js';
import { renderMarkdown, sanitize } from '../../src/tui/markdown.js';
import { colorLevel } from '../../src/tui/terminal/color-level.js';

const plain = new Chalk({ level: 0 });
// Anything a terminal obeys: C0 but newline, DEL, C1 (U+009B is CSI, U+009D is OSC).
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

describe('no control character reaches the terminal raw', () => {
  it('shows C0 as ^X, DEL as ^?, C1 as <9b>', () => {
    expect(sanitize('a\x1b]0;PWN\x07b')).toBe('a^[]0;PWN^Gb');
    expect(sanitize('x\u009b2Jy\u009d0;t\u009c\x7f')).toBe('x<9b>2Jy<9d>0;t<9c>^?');
    expect(sanitize('line\nnext')).toBe('line\nnext');
  });

  it('in a model answer: C1 CSI and OSC come out escaped, in text and in code', () => {
    const rows = renderMarkdown('clear \u009b2J and title \u009d0;x\u0007\n\n```\ncode \u009b31m\n```', 60, { chalk: plain });
    for (const row of rows) expect(row).not.toMatch(CONTROL);
    expect(rows.join('\n')).toContain('<9b>2J');
  });

  it('in tool output, user messages and info cells', () => {
    const cells = [
      {
        kind: 'command',
        id: 1,
        command: 'printf "\\033]52;c;AAAA\\a"',
        output: 'out \x1b]52;c;AAAA\x07 \u009b2J',
        exitCode: 0,
        status: 'completed',
        source: 'model',
      },
      { kind: 'user', id: 2, text: 'pasted \x1b]0;PWN\x07', textElements: [], attachmentLabels: [], turnId: null },
      { kind: 'info', id: 3, text: 'note \u009b1m' },
    ] as const;
    for (const cell of cells) for (const row of cellLines(cell as never, 80, plain)) expect(row).not.toMatch(CONTROL);
  });

  it('in the pending-steer and queued previews, the status line and the footer', () => {
    const preview = previewRows(
      [
        { text: '  ↳ steer \x1b]0;PWN\x07', style: 'steer' },
        { text: '  ↳ queued \x1b]52;c;AAAA\x07', style: 'queued' },
      ] as never,
      plain,
    );
    expect(preview).toEqual(['  ↳ steer ^[]0;PWN^G', '  ↳ queued ^[]52;c;AAAA^G']);
    for (const row of statusLines('Retry \x1b]0;t\x07', 'detail \u009b2J', 3, 60, plain)) expect(row).not.toMatch(CONTROL);
    const footer = footerLine(
      { hint: '? for shortcuts', items: [{ text: 'auto' }, { text: 'gpt\x1b]0;x\x07' }], offline: false, vim: null },
      80,
      plain,
    );
    expect(footer).not.toMatch(CONTROL);
  });
});

describe('NO_COLOR', () => {
  it('any non-empty NO_COLOR turns colour off; FORCE_COLOR still wins; empty NO_COLOR is ignored', () => {
    expect(colorLevel({ NO_COLOR: '1' }, 3)).toBe(0);
    expect(colorLevel({ NO_COLOR: 'yes' }, 2)).toBe(0);
    expect(colorLevel({ NO_COLOR: '' }, 2)).toBe(2);
    expect(colorLevel({}, 1)).toBe(1);
    expect(colorLevel({ NO_COLOR: '1', FORCE_COLOR: '1' }, 1)).toBe(1);
  });
});
