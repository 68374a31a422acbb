/**
 * Vim text objects (`:help text-objects`): `iw aw iW aW`, `is as`, `ip ap`, the quotes `i" a" i' a'
 * i\` a\``, and the blocks `i( a( ib ab i[ a[ i{ a{ iB aB i< a<` (either bracket of a pair works).
 * Words, blocks and quotes are ports of Vim's textobject.c; sentences follow `:help sentence` on
 * the paragraph around the cursor.
 *
 * A span is `[start, end)` plus Vim's `inclusive` flag (the character at `end` belongs to it too)
 * or `linewise`; the operator code turns it into the range it acts on.
 */
import type { TextArea } from '../textarea.js';
import {
  BLANK,
  charEnd,
  elementStartingAt,
  firstNonBlank,
  isBlankChar,
  isBlankLine,
  lineEnd,
  lineIndex,
  lineStart,
  Walker,
} from './chars.js';
import { scanForClose, scanForOpen } from './motions.js';
import { backInLine, endWord, fwdWord } from './words.js';

export interface Span {
  start: number;
  end: number;
  inclusive: boolean;
  linewise: boolean;
}

const BLOCKS: Record<string, readonly [string, string]> = {
  '(': ['(', ')'],
  ')': ['(', ')'],
  b: ['(', ')'],
  '[': ['[', ']'],
  ']': ['[', ']'],
  '{': ['{', '}'],
  '}': ['{', '}'],
  B: ['{', '}'],
  '<': ['<', '>'],
  '>': ['<', '>'],
};
const QUOTES = new Set(['"', "'", '`']);

/** `iw`, `a(`…: a known text object name. */
export function isTextObject(name: string): boolean {
  if (name.length !== 2 || (name[0] !== 'i' && name[0] !== 'a')) return false;
  const k = name[1]!;
  return k === 'w' || k === 'W' || k === 's' || k === 'p' || QUOTES.has(k) || k in BLOCKS;
}

/** The span of text object `name` at `cursor`, or null when there is none (the operator is cancelled). */
export function textObject(ta: TextArea, cursor: number, name: string, count: number): Span | null {
  const include = name[0] === 'a';
  const k = name[1]!;
  if (k === 'w' || k === 'W') return currentWord(ta, cursor, count, include, k === 'W');
  if (k === 'p') return currentParagraph(ta, cursor, count, include);
  if (k === 's') return currentSentence(ta, cursor, count, include);
  if (QUOTES.has(k)) return currentQuote(ta, cursor, count, include, k);
  const pair = BLOCKS[k];
  return pair === undefined ? null : currentBlock(ta, cursor, count, include, pair[0], pair[1]);
}

// ---------- words (current_word) ----------

function currentWord(ta: TextArea, cursor: number, count: number, include: boolean, big: boolean): Span | null {
  const w = new Walker(ta, cursor, big);
  let inclusive = true;
  let includeWhite = false;
  backInLine(w);
  let start = w.pos;
  if ((w.cls() === BLANK) === include) {
    // On blanks with `aw` ("  word"), or on a word with `iw`: to the end of the word.
    if (!endWord(w, 1, true, true)) return null;
  } else {
    // On a word with `aw` ("word  "), or on blanks with `iw`: up to the next word.
    fwdWord(w, 1, true);
    if (w.col0()) w.decl();
    else w.oneleft();
    if (include) includeWhite = true;
  }
  for (let n = count - 1; n > 0; n--) {
    inclusive = true;
    if (w.incl() === -1) return null;
    if (include !== (w.cls() === BLANK)) {
      if (!fwdWord(w, 1, true) && n > 1) return null;
      if (!w.oneleft()) inclusive = false;
    } else if (!endWord(w, 1, true, true)) return null;
  }
  if (includeWhite && (w.cls() !== BLANK || (w.col0() && !inclusive))) {
    // No blanks after the word (last word of a line): take the blanks before it instead, but
    // never the indent.
    const end = w.pos;
    w.pos = start;
    if (w.oneleft()) {
      backInLine(w);
      if (w.cls() === BLANK && !w.col0()) start = w.pos;
    }
    w.pos = end;
  }
  return { start, end: w.pos, inclusive, linewise: false };
}

// ---------- blocks (current_block) ----------

/** In the indent: only blanks from the line start up to and including `pos`. */
function inIndent(text: string, pos: number): boolean {
  return firstNonBlank(text, pos) > pos;
}

function currentBlock(ta: TextArea, cursor: number, count: number, include: boolean, open: string, close: string): Span | null {
  const text = ta.text;
  const w = new Walker(ta, cursor);
  if (open === '{') {
    while (inIndent(text, w.pos)) if (w.inc() !== 0) break;
  }
  if (text[w.pos] === open && elementStartingAt(ta, w.pos) === undefined) w.pos += 1;
  let start = -1;
  let from = w.pos;
  for (let i = 0; i < count; i++) {
    const found = scanForOpen(ta, from, open, close);
    if (found === null) return null;
    start = found;
    from = found;
  }
  const closeAt = scanForClose(ta, start, open, close);
  if (closeAt === null) return null;
  if (include) return { start, end: closeAt, inclusive: true, linewise: false };

  // Inside: without the brackets, and without the indent before a closing bracket on its own line.
  const s = new Walker(ta, start);
  s.incl();
  const e = new Walker(ta, closeAt);
  let sol = e.col0();
  e.decl();
  while (inIndent(text, e.pos)) {
    sol = true;
    if (e.decl() !== 0) break;
  }
  if (sol) {
    e.incl();
    return { start: s.pos, end: e.pos, inclusive: false, linewise: false };
  }
  if (s.pos <= e.pos) return { start: s.pos, end: e.pos, inclusive: true, linewise: false };
  return { start: s.pos, end: s.pos, inclusive: false, linewise: false };
}

// ---------- quotes (current_quote) ----------

function currentQuote(ta: TextArea, cursor: number, count: number, include: boolean, quote: string): Span | null {
  const bol = lineStart(ta.text, cursor);
  const eol = lineEnd(ta.text, cursor);
  // The line as characters (an element is one character that is never a quote).
  const cells: { pos: number; ch: string }[] = [];
  for (let p = bol; p < eol; p = charEnd(ta, p))
    cells.push({ pos: p, ch: elementStartingAt(ta, p) === undefined ? ta.text.slice(p, charEnd(ta, p)) : '\u0000' });
  const at = (i: number): string => (i >= 0 && i < cells.length ? cells[i]!.ch : '');
  const posOf = (i: number): number => (i < cells.length ? cells[i]!.pos : eol);
  const findNext = (from: number, escape: boolean): number => {
    for (let col = from; ; col++) {
      const c = at(col);
      if (c === '') return -1;
      if (escape && c === '\\') {
        col++;
        if (at(col) === '') return -1;
      } else if (c === quote) return col;
    }
  };
  const findPrev = (from: number): number => {
    let col = from;
    while (col > 0) {
      col--;
      let n = 0;
      while (col - n > 0 && at(col - n - 1) === '\\') n++;
      if (n % 2 === 1) col -= n;
      else if (at(col) === quote) break;
    }
    return col;
  };

  let colStart = cells.findIndex((c) => c.pos === cursor);
  if (colStart < 0) colStart = cells.length;
  let colEnd: number;
  if (at(colStart) === quote) {
    // On a quote: opening or closing? Pair the quotes up from the line start.
    const first = colStart;
    colStart = 0;
    for (;;) {
      colStart = findNext(colStart, false);
      if (colStart < 0 || colStart > first) return null;
      colEnd = findNext(colStart + 1, true);
      if (colEnd < 0) return null;
      if (colStart <= first && first <= colEnd) break;
      colStart = colEnd + 1;
    }
  } else {
    colStart = findPrev(colStart);
    if (at(colStart) !== quote) {
      colStart = findNext(colStart, false);
      if (colStart < 0) return null;
    }
    colEnd = findNext(colStart + 1, true);
    if (colEnd < 0) return null;
  }
  if (include) {
    // The blanks after the closing quote, else those before the opening one.
    if (isBlankChar(at(colEnd + 1))) while (isBlankChar(at(colEnd + 1))) colEnd++;
    else while (colStart > 0 && isBlankChar(at(colStart - 1))) colStart--;
  }
  const withQuotes = include || count > 1;
  return {
    start: posOf(withQuotes ? colStart : colStart + 1),
    end: posOf(withQuotes ? colEnd + 1 : colEnd),
    inclusive: false,
    linewise: false,
  };
}

// ---------- paragraphs (current_par) ----------

function currentParagraph(ta: TextArea, cursor: number, count: number, include: boolean): Span | null {
  const text = ta.text;
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const last = starts.length - 1;
  const white = (l: number): boolean => isBlankLine(text, starts[l]!);
  let start = lineIndex(text, cursor);
  const whiteInFront = white(start);
  while (start > 0) {
    if (whiteInFront ? !white(start - 1) : white(start - 1)) break;
    start--;
  }
  let end = start;
  while (end <= last && white(end)) end++;
  end--;
  let i = count;
  if (!include && whiteInFront) i--;
  while (i-- > 0) {
    if (end === last) return null;
    const doWhite = !include && white(end + 1);
    if (include || !doWhite) {
      end++;
      while (end < last && !white(end + 1)) end++;
    }
    if (i === 0 && whiteInFront && include) break;
    if (include || doWhite) while (end < last && white(end + 1)) end++;
  }
  // No blank lines after the paragraph: `ap` takes those before it.
  if (!whiteInFront && !white(end) && include) while (start > 0 && white(start - 1)) start--;
  return { start: starts[start]!, end: lineEnd(text, starts[end]!), inclusive: false, linewise: true };
}

// ---------- sentences ----------

/**
 * `is`/`as` (`:help sentence`): a sentence ends at `.`, `!` or `?` followed by the end of a line or
 * a blank (closing `)`, `]`, `"`, `'` may come between); blank lines bound paragraphs and so
 * sentences. `is` is a sentence or the blanks between two; `as` is a sentence with the blanks after
 * it (or, when there are none, before it).
 */
function currentSentence(ta: TextArea, cursor: number, count: number, include: boolean): Span | null {
  const text = ta.text;
  if (isBlankLine(text, cursor)) return null;
  // The paragraph: the non-blank lines around the cursor.
  let first = lineStart(text, cursor);
  while (first > 0 && !isBlankLine(text, first - 1)) first = lineStart(text, first - 1);
  let last = lineEnd(text, cursor);
  while (last < text.length && !isBlankLine(text, last + 1)) last = lineEnd(text, last + 1);
  const items = sentenceItems(text, first, last);
  let i = items.findIndex((it) => it.start <= cursor && cursor < it.end);
  if (i < 0) i = items.length - 1;
  if (!include) {
    const j = Math.min(items.length, i + count) - 1;
    if (i + count > items.length) return null;
    return { start: items[i]!.start, end: items[j]!.end, inclusive: false, linewise: false };
  }
  // `as` from blanks: the blanks and count sentences after them.
  let j = i;
  let sentences = items[i]!.blank ? 0 : 1;
  while (sentences < count) {
    j++;
    if (j >= items.length) return null;
    if (!items[j]!.blank) sentences++;
  }
  let start = items[i]!.start;
  let end = items[j]!.end;
  if (!items[i]!.blank) {
    // From a sentence: with the blanks after the last one, else with those before the first.
    if (j + 1 < items.length && items[j + 1]!.blank) end = items[j + 1]!.end;
    else if (i > 0 && items[i - 1]!.blank) start = items[i - 1]!.start;
  }
  return { start, end, inclusive: false, linewise: false };
}

interface Item {
  start: number;
  end: number;
  blank: boolean;
}

/** The sentences and the blank runs between them in `[from, to)`. */
function sentenceItems(text: string, from: number, to: number): Item[] {
  const items: Item[] = [];
  const isWhite = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n';
  let p = from;
  while (p < to) {
    const start = p;
    if (isWhite(text[p])) {
      while (p < to && isWhite(text[p])) p++;
      items.push({ start, end: p, blank: true });
      continue;
    }
    while (p < to) {
      const c = text[p]!;
      p++;
      if (c === '.' || c === '!' || c === '?') {
        let q = p;
        while (q < to && ')]"\''.includes(text[q]!)) q++;
        if (q >= to || isWhite(text[q])) {
          p = q;
          break;
        }
      }
    }
    items.push({ start, end: p, blank: false });
  }
  return items;
}
