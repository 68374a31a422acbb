/**
 * Syntax highlighting of code blocks: lowlight (highlight.js 11, every language it ships) parses the
 * code into a hast tree whose `hljs-*` classes our own colour map turns into ANSI through the
 * screen's chalk, so colours follow the same level as the rest of the screen. Big: markdown.ts loads
 * this module on the first fenced block that names a language, never before the first frame.
 */
import type { ChalkInstance } from 'chalk';
import { all, createLowlight } from 'lowlight';
import { currentTheme, palette, type ThemeName } from './theme.js';

type Style = (text: string) => string;

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string };

export interface Highlighter {
  supportsLanguage(name: string): boolean;
  /** ANSI-coloured `code`; throws for a language supportsLanguage denies. */
  highlight(code: string, language: string, c: ChalkInstance): string;
}

export function createHighlighter(): Highlighter {
  const lowlight = createLowlight(all);
  return {
    supportsLanguage: (name) => lowlight.registered(name),
    highlight: (code, language, c) => {
      const theme = codeTheme(c);
      return lowlight
        .highlight(language, code)
        .children.map((node) => render(node as HastNode, theme))
        .join('');
    },
  };
}

/**
 * A span is styled by its first class (`hljs-title function_` is a title); spans nest, so a keyword
 * inside `meta` is a keyword in a dim line. Unknown classes stay plain.
 */
function render(node: HastNode, theme: Record<string, Style>): string {
  if (node.type === 'text') return (node as HastText).value;
  if (node.type !== 'element') return '';
  const element = node as HastElement;
  const inner = element.children.map((child) => render(child, theme)).join('');
  const classes = Array.isArray(element.properties?.className) ? (element.properties.className as unknown[]) : [];
  const first = typeof classes[0] === 'string' ? classes[0] : '';
  const style = first.startsWith('hljs-') ? theme[first.slice('hljs-'.length)] : undefined;
  return style === undefined || inner === '' ? inner : style(inner);
}

/** Highlight classes in the theme's colours (theme.ts): keywords, strings, numbers, names, comments. */
export function codeTheme(c: ChalkInstance, theme: ThemeName = currentTheme()): Record<string, Style> {
  const colours = palette(c, theme);
  const keyword = colours.keyword;
  const str = colours.string;
  const num = colours.number;
  const name = colours.name;
  const comment = colours.comment;
  return {
    keyword,
    built_in: name,
    type: name,
    literal: num,
    number: num,
    regexp: str,
    string: str,
    symbol: num,
    class: name,
    function: name,
    title: name,
    comment,
    doctag: comment,
    meta: c.dim,
    section: c.bold,
    tag: c.dim,
    name: keyword,
    attr: name,
    attribute: name,
    variable: name,
    bullet: num,
    code: name,
    emphasis: c.italic,
    strong: c.bold,
    formula: name,
    link: c.underline,
    quote: comment,
    addition: colours.added,
    deletion: colours.removed,
  };
}
