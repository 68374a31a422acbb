/**
 * Is a pasted string exactly one file path (docs/codex-parity.md#images-in-the-composer)? Drag-and-drop
 * into a terminal arrives as a paste of the path, quoted or shell-escaped depending on the terminal, or
 * as a `file://` URL.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PastePathContext {
  /** Relative paths resolve against this directory. */
  cwd: string;
  /** `~` expands to this directory. */
  home: string;
  /** Running under WSL: Windows drive paths (`C:\Users\…`, as Explorer drops them) map to `/mnt/c/…`. */
  wsl?: boolean;
}

/** Longer than any real path: such a paste is text, and not worth lexing. */
const MAX_PATH_PASTE_CHARS = 4096;

/**
 * The absolute path a paste names, or null when it is not exactly one path: trim; a `file://` URL (one
 * pair of surrounding quotes allowed) becomes its percent-decoded path; a Windows drive path maps to
 * `/mnt/<drive>/…` under WSL (elsewhere it is not a path); otherwise the text is split like a POSIX
 * shell would (quotes, backslash escapes such as `a\ b.png`) and must give exactly one word; `~/…`
 * expands to the home directory and relative paths resolve against cwd.
 */
export function normalizePastedPath(text: string, ctx: PastePathContext): string | null {
  const pasted = text.trim();
  if (pasted === '' || pasted.length > MAX_PATH_PASTE_CHARS) return null;
  const unquoted = stripOneQuotePair(pasted);
  if (/^file:/i.test(unquoted)) return fileUrlToPath(unquoted);
  // Backslashes in a Windows path are separators, not shell escapes, so it bypasses the shell split.
  if (WINDOWS_DRIVE_PATH.test(unquoted)) return ctx.wsl ? wslPath(unquoted) : null;
  const words = shellSplit(pasted);
  if (words === null || words.length !== 1) return null;
  const word = words[0]!;
  if (word === '' || word.includes('\0')) return null;
  return path.resolve(ctx.cwd, expandHome(word, ctx.home));
}

const WINDOWS_DRIVE_PATH = /^[A-Za-z]:[\\/]/;

function wslPath(windowsPath: string): string {
  const drive = windowsPath[0]!.toLowerCase();
  const rest = windowsPath
    .slice(3)
    .split(/[\\/]+/)
    .filter(Boolean);
  return path.posix.join('/mnt', drive, ...rest);
}

function stripOneQuotePair(text: string): string {
  for (const quote of ['"', "'"]) {
    if (text.length >= 2 && text.startsWith(quote) && text.endsWith(quote)) return text.slice(1, -1);
  }
  return text;
}

function fileUrlToPath(text: string): string | null {
  // A URL never holds raw whitespace; several dropped files arrive as several URLs.
  if (/\s/u.test(text)) return null;
  try {
    return fileURLToPath(new URL(text));
  } catch {
    return null; // not a valid URL, or a file URL naming another host
  }
}

function expandHome(word: string, home: string): string {
  if (word === '~') return home;
  if (word.startsWith('~/')) return path.join(home, word.slice(2));
  return word;
}

/**
 * POSIX-shell word splitting without expansions: whitespace separates words; `'…'` is literal; inside
 * `"…"` a backslash escapes only `$`, `` ` ``, `"`, `\` and newline; elsewhere a backslash escapes the
 * next character (backslash-newline is removed). An unterminated quote or trailing backslash → null.
 */
export function shellSplit(text: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (ch === '\\') {
      if (i + 1 >= text.length) return null;
      if (text[i + 1] !== '\n') word += text[i + 1];
      i += 2;
    } else if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return null;
      word += text.slice(i + 1, close);
      i = close + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= text.length) return null;
        const c = text[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
          if (text[i + 1] !== '\n') word += text[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
