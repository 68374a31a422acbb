/**
 * Vim's word searches (search.c / textobject.c: fwd_word, end_word, bck_word, bckend_word,
 * back_in_line), ported onto Walker. They move `w.pos` and answer false where Vim returns FAIL; the
 * position reached before failing is still meaningful (an operator uses it, as Vim does).
 */
import { BLANK, Walker } from './chars.js';

/** `w`/`W`: to the start of the count'th next word. With `eol` (an operator pending) the last word stops at its line's end. */
export function fwdWord(w: Walker, count: number, eol: boolean): boolean {
  while (--count >= 0) {
    const sclass = w.cls();
    const lastLine = w.onLastLine();
    let i = w.inc();
    if (i === -1 || (i >= 1 && lastLine)) return false;
    if (i >= 1 && eol && count === 0) return true;
    if (sclass !== BLANK) {
      while (w.cls() === sclass) {
        i = w.inc();
        if (i === -1 || (i >= 1 && eol && count === 0)) return true;
      }
    }
    // Then to the next non-blank, stopping on an empty line (a word of its own).
    while (w.cls() === BLANK) {
      if (w.lineEmpty()) break;
      i = w.inc();
      if (i === -1 || (i >= 1 && eol && count === 0)) return true;
    }
  }
  return true;
}

/**
 * `e`/`E`: to the end of the count'th word. With `stop`, a cursor already on a word's last
 * character stays there for the first count (`cw`); with `empty`, an empty line is a word.
 */
export function endWord(w: Walker, count: number, stop: boolean, empty: boolean): boolean {
  while (--count >= 0) {
    const sclass = w.cls();
    if (w.inc() === -1) return false;
    let finished = false;
    if (w.cls() === sclass && sclass !== BLANK) {
      if (w.skip(sclass, true)) return false;
    } else if (!stop || sclass === BLANK) {
      while (w.cls() === BLANK) {
        if (w.lineEmpty() && empty) {
          finished = true;
          break;
        }
        if (w.inc() === -1) return false;
      }
      if (!finished && w.skip(w.cls(), true)) return false;
    }
    if (!finished) w.dec();
    stop = false;
  }
  return true;
}

/** `b`/`B`: to the start of the count'th previous word (an empty line counts as one). */
export function bckWord(w: Walker, count: number, stop: boolean): boolean {
  while (--count >= 0) {
    const sclass = w.cls();
    if (w.dec() === -1) return false;
    let finished = false;
    if (!stop || sclass === w.cls() || sclass === BLANK) {
      while (w.cls() === BLANK) {
        if (w.lineEmpty()) {
          finished = true;
          break;
        }
        if (w.dec() === -1) return true;
      }
      if (!finished && w.skip(w.cls(), false)) return true;
    }
    if (!finished) w.inc();
    stop = false;
  }
  return true;
}

/** `ge`/`gE`: to the end of the count'th previous word. With `eol`, stop when crossing a line. */
export function bckendWord(w: Walker, count: number, eol: boolean): boolean {
  while (--count >= 0) {
    const sclass = w.cls();
    let i = w.dec();
    if (i === -1) return false;
    if (eol && i === 1) return true;
    if (sclass !== BLANK) {
      while (w.cls() === sclass) {
        i = w.dec();
        if (i === -1 || (eol && i === 1)) return true;
      }
    }
    while (w.cls() === BLANK) {
      if (w.lineEmpty()) break;
      i = w.dec();
      if (i === -1 || (eol && i === 1)) return true;
    }
  }
  return true;
}

/** Back to the start of the run of same-class characters, within the line. */
export function backInLine(w: Walker): void {
  const sclass = w.cls();
  for (;;) {
    if (w.col0()) break;
    w.dec();
    if (w.cls() !== sclass) {
      w.inc();
      break;
    }
  }
}
