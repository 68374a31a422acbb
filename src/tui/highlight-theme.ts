/**
 * A highlighted tree (lowlight's hast) to ANSI in the screen's chalk, and the classes' colours. Apart
 * from highlight.ts, so a tree made elsewhere (the diff highlighter's worker, diff/diff-colours.ts)
 * is drawn without loading lowlight here.
 */
import type { ChalkInstance } from 'chalk';
import { currentTheme, palette, type ThemeName } from './theme.js';

export type Style = (text: string) => string;

export interface HastText {
  type: 'text';
  value: string;
}
export interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
export type HastNode = HastText | HastElement | { type: string };

/**
 * A span is styled by its first class (`hljs-title function_` is a title); spans nest, so a keyword
 * inside `meta` is a keyword in a dim line. Unknown classes stay plain.
 */
export function renderHast(node: HastNode, theme: Record<string, Style>): string {
  if (node.type === 'text') return (node as HastText).value;
  if (node.type !== 'element') return '';
  const element = node as HastElement;
  const inner = element.children.map((child) => renderHast(child, theme)).join('');
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
