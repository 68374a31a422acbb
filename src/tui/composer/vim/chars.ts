/**
 * Vim's view of the composer text: characters, lines and character classes.
 *
 * A Vim "character" is one grapheme cluster or one whole element (`[Image #1]`, a pasted-content
 * placeholder): the caret never stops inside either. Positions are string indices on those
 * boundaries. Each line's "NUL" (the position after its last character, where Vim's `inc()` and
 * `dec()` step between lines) is its `\n`, or the text's end for the last line, so Vim's algorithms
 * port over one to one: see Walker.
 */
import { nextGrapheme, prevGrapheme } from '../graphemes.js';
import { lineEnd, lineStart, type TextArea, type TextAreaElement } from '../textarea.js';

export { lineEnd, lineStart };

/** The element starting at `pos`, if any. */
export function elementStartingAt(ta: TextArea, pos: number): TextAreaElement | undefined {
  return ta.elements.find((e) => e.start === pos);
}

/** The end of the character at `pos` (text.length at the end). */
export function charEnd(ta: TextArea, pos: number): number {
  if (pos >= ta.text.length) return ta.text.length;
  const el = elementStartingAt(ta, pos);
  if (el !== undefined) return el.end;
  if (ta.text[pos] === '\n') return pos + 1;
  return nextGrapheme(ta.text, pos);
}

/** The start of the character before `pos` (0 at the start). */
export function charStart(ta: TextArea, pos: number): number {
  if (pos <= 0) return 0;
  const el = ta.elements.find((e) => e.end === pos);
  if (el !== undefined) return el.start;
  if (ta.text[pos - 1] === '\n') return pos - 1;
  return prevGrapheme(ta.text, pos);
}

/** On a line's end: its `\n` or the end of the text (Vim's NUL). */
export function isEol(text: string, pos: number): boolean {
  return pos >= text.length || text[pos] === '\n';
}

export function isBol(text: string, pos: number): boolean {
  return pos <= 0 || text[pos - 1] === '\n';
}

/** The last character of the line holding `pos` (the line start for an empty line). */
export function lastCharOfLine(ta: TextArea, pos: number): number {
  const bol = lineStart(ta.text, pos);
  const eol = lineEnd(ta.text, pos);
  return eol === bol ? bol : charStart(ta, eol);
}

export function isBlankChar(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/** The first non-blank of the line holding `pos` (its end when the line is all blanks). */
export function firstNonBlank(text: string, pos: number): number {
  let p = lineStart(text, pos);
  const eol = lineEnd(text, pos);
  while (p < eol && isBlankChar(text[p])) p++;
  return p;
}

/** The caret as Normal mode keeps it: on a character, never on the NUL of a non-empty line. */
export function clampToLine(ta: TextArea, pos: number): number {
  const p = Math.max(0, Math.min(pos, ta.text.length));
  if (isEol(ta.text, p) && !isBol(ta.text, p)) return charStart(ta, p);
  return p;
}

// ---------- lines ----------

/** 0-based line number of `pos`. */
export function lineIndex(text: string, pos: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function lineCount(text: string): number {
  return lineIndex(text, text.length) + 1;
}

/** Start of 0-based line `n` (clamped to the existing lines). */
export function lineStartAt(text: string, n: number): number {
  let pos = 0;
  for (let i = 0; i < n; i++) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) return pos;
    pos = nl + 1;
  }
  return pos;
}

/** A line's text is only blanks (or nothing). */
export function isBlankLine(text: string, pos: number): boolean {
  return firstNonBlank(text, pos) === lineEnd(text, pos);
}

// ---------- character classes (Vim's cls() / utf_class()) ----------

export const BLANK = 0;
export const PUNCT = 1;
export const WORD = 2;
export const EMOJI = 3;

const HAN = /\p{Script=Han}/u;
const HIRAGANA = /\p{Script=Hiragana}/u;
const KATAKANA = /\p{Script=Katakana}/u;
const HANGUL = /\p{Script=Hangul}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
const LETTER = /[\p{L}\p{M}\p{N}_]/u;
const SPACE = /\s/u;

/**
 * Vim's class of the character that `ch` starts with: 0 blank, 1 punctuation, 2 word,
 * 3 emoji, and a class of their own for CJK ideographs, kana and Hangul (so `w` stops where the
 * script changes, as in Vim).
 */
export function classOfChar(ch: string): number {
  const cp = ch.codePointAt(0);
  if (cp === undefined) return BLANK;
  const c = String.fromCodePoint(cp);
  if (cp < 0x80) {
    if (cp <= 0x20) return BLANK;
    return /[A-Za-z0-9_]/.test(c) ? WORD : PUNCT;
  }
  if (SPACE.test(c)) return BLANK;
  if (cp >= 0x3000 && cp <= 0x303f) return PUNCT;
  if (PICTOGRAPHIC.test(c)) return EMOJI;
  if (HAN.test(c)) return 0x4e00;
  if (HIRAGANA.test(c)) return 0x3040;
  if (KATAKANA.test(c)) return 0x30a0;
  if (HANGUL.test(c)) return 0xac00;
  return LETTER.test(c) ? WORD : PUNCT;
}

/** Result of Walker.inc(): -1 at the end of the text, 1 onto the next line, 2 onto a line's NUL, else 0. */
export type IncResult = -1 | 0 | 1 | 2;

/**
 * A cursor that moves as Vim's does in its C code (`inc`, `dec`, `cls`…), so the word motions and
 * text objects below are direct ports of Vim's search.c / textobject.c.
 */
export class Walker {
  constructor(
    readonly ta: TextArea,
    public pos: number,
    /** WORDs (`W`, `B`, `E`, `iW`): every non-blank is one class. */
    public big = false,
  ) {}

  get text(): string {
    return this.ta.text;
  }

  isNul(p = this.pos): boolean {
    return isEol(this.text, p);
  }

  col0(p = this.pos): boolean {
    return isBol(this.text, p);
  }

  lineEmpty(p = this.pos): boolean {
    return this.col0(p) && this.isNul(p);
  }

  onLastLine(p = this.pos): boolean {
    return this.text.indexOf('\n', p) === -1;
  }

  /** Vim's inc(): one character on, onto the line's NUL (2), then to the next line (1). */
  inc(): IncResult {
    if (!this.isNul()) {
      this.pos = charEnd(this.ta, this.pos);
      return this.isNul() ? 2 : 0;
    }
    if (this.pos < this.text.length) {
      this.pos += 1;
      return 1;
    }
    return -1;
  }

  /** Vim's dec(): one character back; from a line start onto the previous line's NUL (1). */
  dec(): -1 | 0 | 1 {
    if (!this.col0()) {
      this.pos = charStart(this.ta, this.pos);
      return 0;
    }
    if (this.pos > 0) {
      this.pos -= 1;
      return 1;
    }
    return -1;
  }

  /** inc() that skips the NUL of a non-empty line. */
  incl(): IncResult {
    let r = this.inc();
    if (r === 2) r = this.inc();
    return r;
  }

  /** dec() that skips the NUL of a non-empty line. */
  decl(): -1 | 0 | 1 {
    let r = this.dec();
    if (r === 1 && !this.col0()) r = this.dec();
    return r;
  }

  /** One character left within the line. */
  oneleft(): boolean {
    if (this.col0()) return false;
    this.pos = charStart(this.ta, this.pos);
    return true;
  }

  /** The class of the character under the cursor (an element is a word of its own). */
  cls(): number {
    if (this.isNul()) return BLANK;
    const el = elementStartingAt(this.ta, this.pos);
    if (el !== undefined) return this.big ? PUNCT : -1 - el.id;
    const c = classOfChar(this.text.slice(this.pos, this.pos + 2));
    if (c !== BLANK && this.big) return PUNCT;
    return c;
  }

  /** The character under the cursor ('' on a NUL; an element's whole label). */
  char(): string {
    if (this.isNul()) return '';
    return this.text.slice(this.pos, charEnd(this.ta, this.pos));
  }

  /** Vim's skip_chars(): while the class is `cls`, move; true when the text ran out. */
  skip(cls: number, forward: boolean): boolean {
    while (this.cls() === cls) {
      if ((forward ? this.inc() : this.dec()) === -1) return true;
    }
    return false;
  }
}
