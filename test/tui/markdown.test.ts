import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { highlighterLoaded, loadHighlighter, onHighlighterLoaded, renderMarkdown, sanitize } from '../../src/tui/markdown.js';

const color = new Chalk({ level: 1 });
const plain = (md: string, width = 60): string[] => renderMarkdown(md, width, { chalk: new Chalk({ level: 0 }) });
const styled = (md: string, width = 60): string[] => renderMarkdown(md, width, { chalk: color });

describe('renderMarkdown', () => {
  it('renders headings without the hashes, bold', () => {
    expect(plain('# Title\n\n## Sub')).toEqual(['Title', '', 'Sub']);
    expect(styled('## Sub')[0]).toBe(color.bold('Sub'));
  });

  it('styles emphasis, strong, strikethrough and inline code', () => {
    const [line] = styled('a *em* **strong** ~~gone~~ `code`');
    expect(line).toBe(`a ${color.italic('em')} ${color.bold('strong')} ${color.strikethrough('gone')} ${color.cyan('code')}`);
  });

  it('wraps paragraphs at the width by display cells and keeps soft line breaks', () => {
    const lines = plain('one two three four five six\nnext line', 10);
    expect(lines).toEqual(['one two', 'three four', 'five six', 'next line']);
    const cjk = plain('漢字漢字漢字漢字', 8);
    expect(cjk.every((l) => stringWidth(l) <= 8)).toBe(true);
    expect(cjk.join('')).toBe('漢字漢字漢字漢字');
  });

  it('renders a paragraph of plain prose as the lexer would, and leaves autolinks to it', () => {
    expect(plain(`It's "plain" prose: commas, (parentheses), 100% and a+b=c -- no markup at all!`, 24)).toEqual([
      `It's "plain" prose:`,
      'commas, (parentheses),',
      '100% and a+b=c -- no',
      'markup at all!',
    ]);
    expect(plain('x  y')).toEqual(['x  y']);
    // A paragraph still streaming ends in a space or a blank line; spaces after a newline are a line of it.
    expect(plain('one two \n\n')).toEqual(['one two']);
    expect(plain('one\n  ')).toEqual(['one', '']);
    expect(plain('see www.example.com now', 24)).toEqual(['see www.example.com', '(http://www.example.com)', 'now']);
  });

  it('renders bullet, ordered, nested and task lists with hanging indents', () => {
    expect(plain('- a\n- b\n  - c')).toEqual(['- a', '- b', '  - c']);
    expect(plain('1. x\n2. y')).toEqual(['1. x', '2. y']);
    expect(plain('- [ ] todo\n- [x] done')).toEqual(['- [ ] todo', '- [x] done']);
    expect(plain('- alpha beta gamma', 10)).toEqual(['- alpha', '  beta', '  gamma']);
  });

  it('renders block quotes with a bar and rules', () => {
    expect(plain('> quoted')).toEqual(['│ quoted']);
    expect(plain('---', 20)).toEqual(['─'.repeat(20)]);
  });

  it('shows link targets unless the text is the URL', () => {
    expect(plain('[docs](https://x.dev)')).toEqual(['docs (https://x.dev)']);
    expect(plain('see https://x.dev')).toEqual(['see https://x.dev']);
  });

  it('renders code blocks indented and unwrapped by markdown rules', () => {
    expect(plain('```\n*not em*\n  indented\n```')).toEqual(['  *not em*', '    indented']);
  });

  it('renders tables as aligned columns', () => {
    expect(plain('| a | b |\n|---|---|\n| 1 | 22 |')).toEqual(['a │ b', '──┼───', '1 │ 22']);
  });

  it('decodes entities and shows control characters visibly', () => {
    expect(plain('a & b < c')).toEqual(['a & b < c']);
    expect(sanitize('x\x1b[31my\x07')).toBe('x^[[31my^G');
    expect(plain('bad \x1b[2J').join('')).not.toContain('\x1b');
  });

  it('handles an unterminated code fence while streaming', () => {
    expect(plain('```py\nprint(1)')).toEqual(['  print(1)']);
  });

  it('highlights code blocks once the highlighter is loaded, keeping the text', async () => {
    let notified = 0;
    const off = onHighlighterLoaded(() => notified++);
    renderMarkdown('```ts\nconst a = 1;\n```', 40, { chalk: color });
    await loadHighlighter();
    off();
    expect(highlighterLoaded()).toBe(true);
    expect(notified).toBe(1);
    const [line] = styled('```ts\nconst a = 1;\n```');
    expect(stripAnsi(line!)).toBe('  const a = 1;');
    expect(line).toContain(color.magenta('const'));
    // An unknown language stays plain.
    expect(styled('```nolang\nx\n```')).toEqual([`  ${color.cyan('x')}`]);
  });
});
