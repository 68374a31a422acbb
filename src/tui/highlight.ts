/**
 * Syntax highlighting of code blocks: lowlight (highlight.js 11, every language it ships) parses the
 * code into a hast tree whose `hljs-*` classes our own colour map turns into ANSI through the
 * screen's chalk (highlight-theme.ts), so colours follow the same level as the rest of the screen. Big: markdown.ts loads
 * this module on the first fenced block that names a language, never before the first frame.
 */
import type { ChalkInstance } from 'chalk';
import { all, createLowlight } from 'lowlight';
import { codeTheme, type HastNode, renderHast } from './highlight-theme.js';

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
        .children.map((node) => renderHast(node as HastNode, theme))
        .join('');
    },
  };
}
