import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { appendOutput, LIVE_OUTPUT_HEAD, LIVE_OUTPUT_TAIL, NO_OUTPUT } from '../../../src/tui/chat/turn/live-command-output.js';
import { quitHintText } from '../../../src/tui/chat/input/quit-press.js';
import {
  agentLines,
  cellLines,
  footerLine,
  LIVE_COMMAND_OUTPUT_LINES,
  liveCommandLines,
  markdownBlocks,
  previewRows,
  statusLines,
  USER_CELL_MAX_ROWS,
} from '../../../src/tui/components/lines.js';
import { APPROVAL_TITLE, approvalLines, MODE_PICKER_TITLE, modePickerLines } from '../../../src/tui/components/modal-lines.js';
import type { TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });
const color = new Chalk({ level: 1 });
const text = (lines: string[]): string[] => lines.map((l) => stripAnsi(l));

describe('transcript cell rows', () => {
  it('draws a user prompt with the glyph, a hanging indent and its attachment labels, after a blank row', () => {
    const cell: TranscriptCell = {
      kind: 'user',
      id: 1,
      text: 'one two three four',
      textElements: [],
      attachmentLabels: ['[Image #1] a.png'],
      turnId: null,
    };
    expect(cellLines(cell, 14, plain)).toEqual(['', '› one two', '  three four', '  [Image #1]', '  a.png']);
    expect(cellLines({ ...cell, text: '  indented\nline', attachmentLabels: [] }, 40, plain)).toEqual(['', '›   indented', '  line']);
  });

  it('renders agent markdown with a bullet and a 2-cell indent', () => {
    const cell: TranscriptCell = { kind: 'agent', id: 2, markdown: '**Done**\n\n- a' };
    expect(cellLines(cell, 40, plain)).toEqual(['', '• Done', '', '  - a']);
  });

  it('uses the info, error and warning glyphs, errors in red', () => {
    expect(cellLines({ kind: 'info', id: 3, text: 'Vim mode enabled.', hint: 'Example: !ls' }, 40, plain)).toEqual([
      '',
      '• Vim mode enabled.',
      '  Example: !ls',
    ]);
    const error = cellLines({ kind: 'error', id: 4, text: 'Conversation interrupted' }, 40, color);
    expect(error[1]).toBe(color.red('■ Conversation interrupted'));
    expect(text(cellLines({ kind: 'warning', id: 5, text: 'careful' }, 40, color))).toEqual(['', '⚠ careful']);
  });

  it('shows a command with its output, eliding the middle of long output, and a failing exit code', () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const rows = cellLines(
      { kind: 'command', id: 6, command: 'seq 30', output, exitCode: 2, status: 'completed', source: 'model' },
      40,
      plain,
    );
    expect(rows[1]).toBe('✗ $ seq 30');
    expect(rows).toContain('  │ line 0');
    expect(rows).toContain('  │ … 14 more lines');
    expect(rows).toContain('  │ line 29');
    expect(rows.at(-1)).toBe('  └ exit code 2');
    const declined = cellLines(
      { kind: 'command', id: 7, command: 'rm x', output: '', exitCode: null, status: 'declined', source: 'model' },
      40,
      plain,
    );
    expect(declined).toEqual(['', '✗ $ rm x', '  └ declined']);
  });

  it('never writes control characters from cell text to the terminal', () => {
    const rows = cellLines({ kind: 'user', id: 8, text: 'a\x1b[2Jb', textElements: [], attachmentLabels: [], turnId: null }, 40, plain);
    expect(rows.join('')).not.toContain('\x1b');
    expect(rows[1]).toBe('› a^[[2Jb');
  });

  it('a message over USER_CELL_MAX_ROWS rows shows its start and end around the count; the pager gets it whole', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    const cell: TranscriptCell = {
      kind: 'user',
      id: 10,
      text: lines.join('\n'),
      textElements: [],
      attachmentLabels: ['[Image #1] a.png'],
      turnId: null,
    };
    const rows = cellLines(cell, 40, plain);
    expect(rows).toHaveLength(1 + USER_CELL_MAX_ROWS + 1);
    expect(rows[1]).toBe('› line 0');
    expect(rows[799]).toBe('  line 798');
    expect(rows[800]).toBe('    … 2001 more lines');
    expect(rows[801]).toBe('  line 2800');
    expect(rows.at(-2)).toBe('  line 2999');
    expect(rows.at(-1)).toBe('  [Image #1] a.png');
    const whole = cellLines(cell, 40, plain, true);
    expect(whole).toHaveLength(1 + 3000 + 1);
    expect(cellLines({ ...cell, text: lines.slice(0, USER_CELL_MAX_ROWS).join('\n') }, 40, plain)).toHaveLength(1 + USER_CELL_MAX_ROWS + 1);
  });

  it('keeps every row within the width, CJK included', () => {
    const rows = cellLines(
      { kind: 'user', id: 9, text: '漢字'.repeat(30), textElements: [], attachmentLabels: [], turnId: null },
      20,
      plain,
    );
    expect(rows.every((r) => stringWidth(r) <= 20)).toBe(true);
  });
});

describe('status, live command, preview, approval and footer rows', () => {
  it('shows the working status with elapsed seconds, or the retry message, and a detail row', () => {
    expect(text(statusLines(null, null, 12, 80, color))).toEqual(['• Working (12s • esc to interrupt)']);
    expect(text(statusLines('Preparing 4 attachments…', null, 1, 80, color, '⠙'))).toEqual([
      '⠙ Preparing 4 attachments… (1s • esc to interrupt)',
    ]);
    expect(text(statusLines('Reconnecting... 2/5', 'stream closed', 3, 80, color))).toEqual([
      '• Reconnecting... 2/5 (3s • esc to interrupt)',
      '  └ stream closed',
    ]);
  });

  it('shows the running command with the tail of its output', () => {
    const rows = liveCommandLines(
      { itemId: 'c1', command: 'make', output: appendOutput(NO_OUTPUT, 'a\nb\nc\nd\ne\nf\ng\nh\n') },
      40,
      plain,
    );
    expect(rows).toEqual(['', '⋯ $ make', '  │ … 2 more lines', '  │ c', '  │ d', '  │ e', '  │ f', '  │ g', '  │ h']);
  });

  it('shows the latest of a running command that printed megabytes, with an at-least count above it', () => {
    let output = NO_OUTPUT;
    for (let i = 0; i < 2_000; i++) output = appendOutput(output, `${'x'.repeat(1_000)}\nline ${i}\n`);
    expect(output.head.length + output.tail.length).toBe(LIVE_OUTPUT_HEAD + LIVE_OUTPUT_TAIL);
    const rows = liveCommandLines({ itemId: 'c1', command: 'make', output }, 40, plain);
    expect(rows.at(-1)).toBe('  │ line 1999');
    expect(rows.at(-2)).toMatch(/^ {2}│ x+$/u);
    expect(rows[2]).toMatch(/^ {2}│ … \d+\+ more lines$/u);
    expect(rows).toHaveLength(2 + 1 + LIVE_COMMAND_OUTPUT_LINES);
  });

  it('styles the pending-input preview without changing its text', () => {
    const lines = [
      { text: '• Queued follow-up inputs', style: 'header' as const },
      { text: '  ↳ next', style: 'queued' as const },
      { text: '', style: 'blank' as const },
      { text: '    alt + ↑ edit last queued message', style: 'hint' as const },
    ];
    expect(text(previewRows(lines, color))).toEqual(lines.map((l) => l.text));
  });

  it('asks for approval with the command, the working directory and the keys', () => {
    const rows = text(approvalLines({ kind: 'approval', command: 'rm -rf build', cwd: '/work', reason: null }, 80, color));
    expect(rows[0]).toBe(APPROVAL_TITLE);
    expect(rows).toContain('  $ rm -rf build');
    expect(rows).toContain('  in /work');
    expect(rows.some((r) => r.startsWith('  y  Yes, proceed'))).toBe(true);
    expect(rows.some((r) => r.startsWith('  a  '))).toBe(true);
    expect(rows.some((r) => r.startsWith('  n  ') && r.includes('(esc)'))).toBe(true);
  });

  it("cuts a command taller than the prompt's room: first rows, a count, the last row; the keys always shown", () => {
    const command = Array.from({ length: 40 }, (_, i) => `echo line ${i + 1}`).join('\n');
    const rows = text(approvalLines({ kind: 'approval', command, cwd: '/work', reason: null }, 80, color, 14));
    expect(rows).toHaveLength(14);
    expect(rows).toContain('  $ echo line 1');
    expect(rows).toContain('    echo line 40');
    expect(rows.find((r) => r.includes('more lines'))).toMatch(/^ {4}… 34 more lines$/);
    expect(rows.some((r) => r.startsWith('  n  '))).toBe(true);
    expect(text(approvalLines({ kind: 'approval', command, cwd: '/work', reason: null }, 80, color)).length).toBe(47);
  });

  it("shows at most three rows of a running command's text", () => {
    const rows = liveCommandLines(
      { itemId: 'c1', command: Array.from({ length: 10 }, (_, i) => `step ${i}`).join('\n'), output: NO_OUTPUT },
      40,
      plain,
    );
    expect(rows).toEqual(['', '⋯ $ step 0', '    step 1', '    … 8 more lines']);
  });

  const auto = { text: 'auto', danger: false };

  it('puts the hint left and the approval mode, model, offline and Vim mode right', () => {
    const line = stripAnsi(
      footerLine({ hint: '? for shortcuts', items: [auto, { text: 'tiller-offline' }], offline: true, vim: 'Vim: Normal' }, 70, color),
    );
    expect(line.startsWith('  ? for shortcuts')).toBe(true);
    expect(line.endsWith('auto · tiller-offline · offline · Vim: Normal')).toBe(true);
    expect(stringWidth(line)).toBe(69);
    expect(stripAnsi(footerLine({ hint: quitHintText('c'), items: [auto, { text: 'm' }], offline: false, vim: null }, 44, color))).toMatch(
      /press Ctrl\+C again to quit +auto · m$/,
    );
  });

  it('draws full access in red, the rest dim', () => {
    const line = footerLine(
      { hint: '? for shortcuts', items: [{ text: 'full access', danger: true }, { text: 'm' }], offline: false, vim: null },
      60,
      color,
    );
    expect(line).toContain(color.red('full access'));
    expect(line).toContain(color.dim(' · m'));
    expect(footerLine({ hint: 'h', items: [auto, { text: 'm' }], offline: false, vim: null }, 60, color)).toContain(color.dim('auto · m'));
  });

  it('cuts a footer too wide for the terminal at the width, the mode still red where it shows', () => {
    const parts = {
      hint: '? for shortcuts',
      items: [{ text: 'full access', danger: true }, { text: 'a-very-long-model-name' }],
      offline: true,
      vim: null,
    };
    expect(stripAnsi(footerLine(parts, 20, color))).toBe('  ? for shortcuts  …');
    const cut = footerLine(parts, 30, color);
    expect(stripAnsi(cut)).toBe('  ? for shortcuts  full acces…');
    expect(cut).toContain(color.red('full acces…'));
    expect(stringWidth(stripAnsi(footerLine(parts, 24, color)))).toBe(24);
  });
});

describe('modePickerLines', () => {
  it('lists the four presets with a description, the highlighted one marked ▸, the current one (current)', () => {
    const rows = text(modePickerLines(1, { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' }, 120, color));
    expect(rows[0]).toBe(MODE_PICKER_TITLE);
    expect(rows[1]).toBe('');
    expect(rows.slice(2)).toEqual([
      '  1. Read only       commands may read anything and write nothing; asks before one needs more',
      '▸ 2. Ask first       asks before every command not known to be read-only',
      '  3. Auto (current)  commands may write in the workspace; asks before one needs more',
      '  4. Full access     no sandbox and no questions: every command runs with your rights',
    ]);
  });

  it('marks no preset current for a mode that is none, and wraps descriptions under themselves', () => {
    const rows = text(modePickerLines(0, { approvalPolicy: 'never', sandboxMode: 'workspace-write' }, 50, plain));
    expect(rows.some((r) => r.includes('(current)'))).toBe(false);
    const first = rows.indexOf(rows.find((r) => r.startsWith('▸ 1. Read only'))!);
    expect(rows[first]).toBe('▸ 1. Read only    commands may read anything and');
    expect(rows[first + 1]).toBe('                  write nothing; asks before one');
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(50);
  });
});

describe('markdownBlocks', () => {
  it('splits at blank lines', () => {
    expect(markdownBlocks('a\nb\n\nc\n\n\nd')).toEqual(['a\nb', 'c', 'd']);
  });

  it('keeps code fences with blank lines whole', () => {
    expect(markdownBlocks('```\nx\n\ny\n```\n\nz')).toEqual(['```\nx\n\ny\n```', 'z']);
    expect(markdownBlocks('~~~\nx\n\n```\n\ny')).toEqual(['~~~\nx\n\n```\n\ny']);
  });

  it('keeps an indented continuation with its block', () => {
    expect(markdownBlocks('- a\n\n  more of a\n\nnext')).toEqual(['- a\n\n  more of a', 'next']);
  });

  it('renders an answer the same whether streamed (last block uncached) or finished', () => {
    const md = '# T\n\npara one\n\n- x\n- y\n\n```ts\nconst a = 1;\n```\n\nend';
    expect(agentLines(md, 40, plain, true)).toEqual(agentLines(md, 40, plain));
    expect(agentLines(md, 40, plain)).toEqual(['• T', '', '  para one', '', '  - x', '  - y', '', '    const a = 1;', '', '  end']);
  });
});
