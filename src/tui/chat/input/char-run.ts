/**
 * The plain ASCII characters at the head of a read's events: what a terminal without bracketed paste
 * sends for pasted text, one key event per character.
 */
import type { InputEvent } from '../../keys/types.js';

function plainAscii(event: InputEvent): string | null {
  if (event.type !== 'key' || event.name !== 'char' || event.kind !== 'press' || event.ctrl || event.alt || event.meta) return null;
  const ch = event.char;
  if (ch === undefined || ch.length !== 1) return null;
  const code = ch.charCodeAt(0);
  return code >= 0x20 && code < 0x7f ? ch : null;
}

/** The characters of `events[from]`, `events[from + 1]`, … up to the first event that is not one. */
export function asciiCharRun(events: readonly InputEvent[], from: number): string {
  let chars = '';
  for (let i = from; i < events.length; i++) {
    const ch = plainAscii(events[i]!);
    if (ch === null) break;
    chars += ch;
  }
  return chars;
}
