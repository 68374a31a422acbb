/** Ctrl+letter, the one test every key handler uses (the parser gives Ctrl+letter as its lower-case letter). */
import type { KeyEvent } from './types.js';

/** Ctrl+`ch` without Alt (Shift may be held: Ctrl+Shift+C is Ctrl+C). */
export function isCtrl(key: KeyEvent, ch: string): boolean {
  return key.name === 'char' && key.ctrl && !key.alt && key.char?.toLowerCase() === ch;
}
