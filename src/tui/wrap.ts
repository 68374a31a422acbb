/**
 * Word wrapping by display width, as wrap-ansi does it with `{ hard: true, trim: true }`, in linear
 * time for text without escape sequences. wrap-ansi measures the whole row again for every word and
 * walks the result character by character for colours; on a long tool output or a resumed thread
 * that was most of the time spent drawing. Text with escape sequences (styled markdown) still goes
 * through wrap-ansi.
 */
import stringWidth from './string-width.js';
import wrapAnsi from 'wrap-ansi';

const ESCAPE = /[\u001b\u009b]/;
// Whitespace other than the space changes what trimming removes; such text takes the general path.
const OTHER_WHITESPACE = /[^\S ]/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ASCII_WITH_COLOURS = /^(?:[\x20-\x7e]|\x1b\[[0-9;]*m)*$/;

function charWidth(ch: string): number {
  const code = ch.charCodeAt(0);
  return ch.length === 1 && code >= 0x20 && code < 0x7f ? 1 : stringWidth(ch);
}

/**
 * `text` wrapped at `columns` cells: words moved whole, longer words broken, rows trimmed, the text
 * in NFC as wrap-ansi leaves it.
 */
export function wrapText(text: string, columns: number): string {
  // Most lines fit (styled ones too): measured once, instead of word by word. ASCII and colour codes
  // only: a zero-width word (a lone combining mark) would lose its space in a real wrap.
  if (text === text.trim() && ASCII_WITH_COLOURS.test(text) && stringWidth(text) <= columns) return text;
  if (ESCAPE.test(text) || OTHER_WHITESPACE.test(text.replaceAll('\n', ' '))) return wrapAnsi(text, columns, { hard: true, trim: true });
  return text
    .normalize()
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n');
}

function wrapLine(text: string, columns: number): string {
  if (text.trim() === '') return '';
  const rows: string[] = [''];
  // The last row's width, kept as it grows (wrap-ansi measures it again for every word).
  let rowWidth = 0;
  const words = text.split(' ');
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const length = stringWidth(word);
    if (index !== 0 && rowWidth > 0) {
      rows[rows.length - 1] += ' ';
      rowWidth++;
    }
    if (length > columns) {
      const remaining = columns - rowWidth;
      const breaksStartingThisLine = 1 + Math.floor((length - remaining - 1) / columns);
      const breaksStartingNextLine = Math.floor((length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingThisLine) {
        rows.push('');
        rowWidth = 0;
      }
      rowWidth = wrapWord(rows, word, columns, rowWidth);
      continue;
    }
    if (rowWidth + length > columns && rowWidth > 0 && length > 0) {
      rows.push('');
      rowWidth = 0;
    }
    rows[rows.length - 1] += word;
    rowWidth += length;
  }
  return rows.map(trimSpacesRight).join('\n');
}

/** Breaks a word longer than a row across rows, code point by code point; returns the last row's width. */
function wrapWord(rows: string[], word: string, columns: number, rowWidth: number): number {
  if (PRINTABLE_ASCII.test(word)) return wrapAsciiWord(rows, word, columns, rowWidth);
  const characters = [...word];
  let visible = rowWidth;
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    const w = charWidth(character);
    if (visible + w <= columns) rows[rows.length - 1] += character;
    else {
      rows.push(character);
      visible = 0;
    }
    visible += w;
    if (visible === columns && index < characters.length - 1) {
      rows.push('');
      visible = 0;
    }
  }
  if (!visible && rows.at(-1)!.length > 0 && rows.length > 1) rows[rows.length - 2] += rows.pop()!;
  // Measured whole: a cluster broken across rows above (an emoji ZWJ sequence) counts as one here.
  return stringWidth(rows.at(-1)!);
}

/** wrapWord for a word of one-cell characters: the rest of the row, then rows of `columns`, cut by slicing. */
function wrapAsciiWord(rows: string[], word: string, columns: number, rowWidth: number): number {
  let at = Math.max(0, Math.min(word.length, columns - rowWidth));
  let visible = rowWidth + at;
  rows[rows.length - 1] += word.slice(0, at);
  while (at < word.length) {
    const piece = word.slice(at, at + columns);
    rows.push(piece);
    at += piece.length;
    visible = piece.length;
  }
  return visible;
}

/** Drops trailing spaces (and zero-width words after them), as wrap-ansi's trim does. */
function trimSpacesRight(row: string): string {
  if (!row.endsWith(' ') && PRINTABLE_ASCII.test(row)) return row;
  const words = row.split(' ');
  let last = words.length;
  while (last > 0 && stringWidth(words[last - 1]!) === 0) last--;
  return last === words.length ? row : words.slice(0, last).join(' ') + words.slice(last).join('');
}
