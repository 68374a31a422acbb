/**
 * Markdown → ANSI lines for a given width: our own small renderer over `marked`'s lexer (headings,
 * lists, emphasis, inline code, code blocks, links, block quotes, rules, tables). Soft line breaks stay
 * line breaks, so a line the model has finished never re-wraps when the next one streams in.
 * Syntax highlighting (highlight.ts: lowlight) loads on the first fenced block with a language; until then
 * that block renders plain and `onHighlighterLoaded` tells the screen to render again (finished
 * answers wait for it: see `highlighterPending`).
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { Lexer, type Token, type Tokens } from 'marked';
import stringWidth from './string-width.js';
import wrapAnsi from 'wrap-ansi';
import type { Highlighter } from './highlight.js';
import { CONTROL_CHAR, visibleControl } from '../protocol/control-chars.js';
import { colorLevel } from './terminal/color-level.js';
import { palette } from './theme.js';
import { wrapText } from './wrap.js';

export interface MarkdownOptions {
  /** Styling; defaults to chalk with the terminal's detected colour level. */
  chalk?: ChalkInstance;
}

let highlighter: Highlighter | null = null;
let loading: Promise<void> | null = null;
let settled = false;
const loadListeners = new Set<() => void>();

/** Loads the highlighter (its own chunk) once; later calls share the same promise. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('./highlight.js').then(
    (mod) => {
      highlighter = mod.createHighlighter();
      settle();
    },
    // No highlighting then; code blocks stay plain, and whatever waited for it goes on.
    settle,
  );
  return loading;
}

function settle(): void {
  settled = true;
  for (const listener of loadListeners) listener();
}

export function highlighterLoaded(): boolean {
  return highlighter !== null;
}

/**
 * `code` in `language`'s colours, or null when the highlighter is not loaded yet (this starts it) or
 * does not know the language; the patch cell colours its diff lines through this.
 */
export function highlightLine(code: string, language: string, c: ChalkInstance): string | null {
  if (highlighter === null) {
    void loadHighlighter();
    return null;
  }
  if (!highlighter.supportsLanguage(language)) return null;
  try {
    return highlighter.highlight(code, language, c);
  } catch {
    return null;
  }
}

/** The highlighter is loading: code rendered now would stay plain although colour is on its way. */
export function highlighterPending(): boolean {
  return loading !== null && !settled;
}

/** Whether the markdown has a fenced code block that names a language (one the highlighter would colour). */
export function hasLanguageFence(markdown: string): boolean {
  return /^ {0,3}(?:`{3,}|~{3,})[ \t]*[^\s`~]/m.test(markdown);
}

/** Called once loading settles, whether it loaded or failed. */
export function onHighlighterLoaded(listener: () => void): () => void {
  loadListeners.add(listener);
  return () => loadListeners.delete(listener);
}

/**
 * Control characters would move the cursor, change modes or set the title (C1's CSI U+009B acts as
 * ESC [ in xterm): C0 shown as `^X` (ESC as `^[`), DEL as `^?`, C1 as `<9b>`, as the composer shows them.
 */
export function sanitize(text: string): string {
  return text.replace(/\t/g, '    ').replace(CONTROL_CHAR, visibleControl);
}

interface Ctx {
  c: ChalkInstance;
}

const defaultChalk = new Chalk({ level: colorLevel(process.env) });

/**
 * A one-line paragraph of plain prose: it starts with a letter and has no character markdown gives a
 * meaning to (emphasis, code, links, HTML, entities, escapes, tables) and no URL an autolink would
 * take; marked would return it as one paragraph of its own text.
 */
const PLAIN_PARAGRAPH = /^[A-Za-z](?:[A-Za-z0-9 .,;:?!'"()%+=-]*[A-Za-z0-9.,;:?!'"()%+=-])?$/;
const AUTOLINK = /www\./i;

/** Without the spaces and then the newlines it ends in, which render as nothing (spaces after a newline are a line). */
function withoutBlankEnd(markdown: string): string {
  let end = markdown.length;
  while (end > 0 && markdown.charCodeAt(end - 1) === 0x0a) end--;
  while (end > 0 && markdown.charCodeAt(end - 1) === 0x20) end--;
  return end === markdown.length ? markdown : markdown.slice(0, end);
}

export function renderMarkdown(markdown: string, width: number, options: MarkdownOptions = {}): string[] {
  // Most paragraphs of an answer are prose: they need no lexer (a long answer has hundreds of them,
  // and the one still streaming renders again every frame).
  const prose = withoutBlankEnd(markdown);
  if (PLAIN_PARAGRAPH.test(prose) && !AUTOLINK.test(prose)) return wrap(prose, Math.max(8, width));
  const ctx: Ctx = { c: options.chalk ?? defaultChalk };
  const tokens = new Lexer({ gfm: true }).lex(sanitize(markdown));
  return renderBlocks(tokens, Math.max(8, width), ctx);
}

/** Blocks are separated by a blank line, except inside a tight list item. */
function renderBlocks(tokens: Token[], width: number, ctx: Ctx, tight = false): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, width, ctx);
    if (lines === null) continue;
    if (out.length > 0 && !tight) out.push('');
    out.push(...lines);
  }
  return out;
}

function wrap(text: string, width: number): string[] {
  return wrapText(text, width).split('\n');
}

function renderBlock(token: Token, width: number, ctx: Ctx): string[] | null {
  const { c } = ctx;
  switch (token.type) {
    case 'space':
      return null;
    case 'heading': {
      const t = token as Tokens.Heading;
      const text = renderInline(t.tokens, ctx);
      const style = t.depth === 1 ? c.bold.underline : t.depth === 2 ? c.bold : c.bold.italic;
      return wrap(text, width).map((line) => style(line));
    }
    case 'paragraph':
      return wrap(renderInline((token as Tokens.Paragraph).tokens, ctx), width);
    case 'text': {
      const t = token as Tokens.Text;
      return wrap(t.tokens ? renderInline(t.tokens, ctx) : t.text, width);
    }
    case 'code':
      return renderCode(token as Tokens.Code, width, ctx);
    case 'blockquote': {
      const inner = renderBlocks((token as Tokens.Blockquote).tokens, width - 2, ctx);
      return inner.map((line) => `${c.dim('│')} ${c.italic(line)}`);
    }
    case 'list':
      return renderList(token as Tokens.List, width, ctx);
    case 'hr':
      return [c.dim('─'.repeat(Math.min(width, 40)))];
    case 'table':
      return renderTable(token as Tokens.Table, width, ctx);
    case 'html':
      return wrap((token as Tokens.HTML).text.replace(/\n+$/, ''), width);
    default:
      return 'raw' in token && typeof token.raw === 'string' ? wrap(token.raw.replace(/\n+$/, ''), width) : null;
  }
}

function renderCode(token: Tokens.Code, width: number, ctx: Ctx): string[] {
  const code = token.text.replace(/\n+$/, '');
  const lang = (token.lang ?? '').trim().split(/\s+/)[0] ?? '';
  let body = code;
  if (lang.length > 0) {
    if (highlighter === null) void loadHighlighter();
    else if (highlighter.supportsLanguage(lang)) {
      try {
        body = highlighter.highlight(code, lang, ctx.c);
      } catch {
        body = code;
      }
    }
  }
  const lines = body === code ? code.split('\n').map((line) => palette(ctx.c).code(line)) : body.split('\n');
  return lines.flatMap((line) => wrapAnsi(line, width - 2, { hard: true, trim: false }).split('\n')).map((l) => `  ${l}`);
}

function renderList(list: Tokens.List, width: number, ctx: Ctx): string[] {
  const out: string[] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, index) => {
    let marker = list.ordered ? `${start + index}. ` : '- ';
    if (item.task) marker += item.checked ? '[x] ' : '[ ] ';
    const indent = ' '.repeat(stringWidth(marker));
    const body = renderBlocks(item.tokens, width - indent.length, ctx, !item.loose);
    if (list.loose && index > 0) out.push('');
    body.forEach((line, i) =>
      out.push(i === 0 ? `${list.ordered ? marker : ctx.c.dim(marker)}${line}` : line === '' ? '' : `${indent}${line}`),
    );
    if (body.length === 0) out.push(marker.trimEnd());
  });
  return out;
}

function renderTable(table: Tokens.Table, width: number, ctx: Ctx): string[] {
  const header = table.header.map((cell) => renderInline(cell.tokens, ctx));
  const rows = table.rows.map((row) => row.map((cell) => renderInline(cell.tokens, ctx)));
  const widths = header.map((h, i) => Math.max(stringWidth(h), ...rows.map((r) => stringWidth(r[i] ?? ''))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (widths.length - 1);
  if (total > width) return wrap(table.raw.replace(/\n+$/, ''), width);
  const pad = (text: string, w: number): string => text + ' '.repeat(Math.max(0, w - stringWidth(text)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => pad(cell, widths[i] ?? 0))
      .join(ctx.c.dim(' │ '))
      .trimEnd();
  return [line(header.map((h) => ctx.c.bold(h))), ctx.c.dim(widths.map((w) => '─'.repeat(w)).join('─┼─')), ...rows.map((r) => line(r))];
}

function renderInline(tokens: Token[] | undefined, ctx: Ctx): string {
  if (!tokens) return '';
  const { c } = ctx;
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text': {
        const t = token as Tokens.Text;
        out += t.tokens ? renderInline(t.tokens, ctx) : decodeEntities(t.text);
        break;
      }
      case 'escape':
        out += (token as Tokens.Escape).text;
        break;
      case 'strong':
        out += c.bold(renderInline((token as Tokens.Strong).tokens, ctx));
        break;
      case 'em':
        out += c.italic(renderInline((token as Tokens.Em).tokens, ctx));
        break;
      case 'del':
        out += c.strikethrough(renderInline((token as Tokens.Del).tokens, ctx));
        break;
      case 'codespan':
        out += palette(c).code(decodeEntities((token as Tokens.Codespan).text));
        break;
      case 'br':
        out += '\n';
        break;
      case 'link': {
        const t = token as Tokens.Link;
        const text = renderInline(t.tokens, ctx);
        out += text === t.href || `mailto:${text}` === t.href ? palette(c).link(text) : `${text} (${palette(c).link(t.href)})`;
        break;
      }
      case 'image': {
        const t = token as Tokens.Image;
        out += `[image: ${t.text || t.href}]`;
        break;
      }
      case 'html':
        out += (token as Tokens.HTML).text;
        break;
      default:
        out += 'raw' in token && typeof token.raw === 'string' ? token.raw : '';
    }
  }
  return out;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
