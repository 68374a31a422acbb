/** What the raw-stdin parser produces: one event per key press or per bracketed paste. */

export type KeyName =
  | 'char'
  | 'enter'
  | 'tab'
  | 'backtab'
  | 'backspace'
  | 'delete'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'insert'
  | 'f';

export interface Modifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
}

export type KeyKind = 'press' | 'repeat' | 'release';

export interface KeyEvent extends Modifiers {
  type: 'key';
  name: KeyName;
  /** The character for `char` keys (one grapheme or code point; lower-case letter for Ctrl+letter). */
  char?: string;
  /** Function key number when name is 'f'. */
  fn?: number;
  kind: KeyKind;
}

export interface PasteEvent {
  type: 'paste';
  text: string;
}

export type InputEvent = KeyEvent | PasteEvent;

/**
 * The terminal window gained (`CSI I`) or lost (`CSI O`) focus; reported while focus reporting
 * (`CSI ? 1004 h`) is on. Not input: main.ts hands it to the controller, never to the composer.
 */
export interface FocusEvent {
  type: 'focus';
  focused: boolean;
}

/** The terminal's answer to the background colour query (OSC 11), channels 0–1. Not input either. */
export interface BackgroundEvent {
  type: 'background';
  rgb: [number, number, number];
}

/** What the parser produces. */
export type TerminalEvent = InputEvent | FocusEvent | BackgroundEvent;

export function key(name: KeyName, opts: Partial<Omit<KeyEvent, 'type' | 'name'>> = {}): KeyEvent {
  return { type: 'key', name, ctrl: false, alt: false, shift: false, meta: false, kind: 'press', ...opts };
}

export function charKey(char: string, opts: Partial<Omit<KeyEvent, 'type' | 'name' | 'char'>> = {}): KeyEvent {
  return key('char', { ...opts, char });
}
