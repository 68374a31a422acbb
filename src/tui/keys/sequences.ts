/**
 * Decoding of complete escape sequences (CSI, SS3) and single control bytes into KeyEvents.
 * The incremental framing (where a sequence starts and ends, timeouts, pastes) lives in parser.ts.
 */
import { key, type KeyEvent, type KeyKind, type KeyName, type Modifiers } from './types.js';

const NO_MODS: Modifiers = { ctrl: false, alt: false, shift: false, meta: false };

/** xterm / kitty modifier parameter: value - 1 is a bitmask (shift 1, alt 2, ctrl 4, super 8, hyper 16, meta 32). */
export function decodeModifiers(param: number | undefined): Modifiers {
  if (param === undefined || !Number.isFinite(param) || param < 1) return { ...NO_MODS };
  const m = param - 1;
  return { shift: (m & 1) !== 0, alt: (m & 2) !== 0, ctrl: (m & 4) !== 0, meta: (m & (8 | 32)) !== 0 };
}

function kindOf(param: number | undefined): KeyKind {
  if (param === 2) return 'repeat';
  if (param === 3) return 'release';
  return 'press';
}

/** A C0 control byte or DEL typed on its own (legacy encoding). Null for bytes that are not keys. */
export function decodeControl(code: number): KeyEvent | null {
  switch (code) {
    case 0x0d:
      return key('enter');
    case 0x0a:
      // LF: what terminals send for Ctrl+J; kept distinct from Enter (CR) so it always means newline.
      return key('char', { char: 'j', ctrl: true });
    case 0x09:
      return key('tab');
    case 0x7f:
    case 0x08:
      return key('backspace');
    case 0x1b:
      return key('escape');
    case 0x00:
      return key('char', { char: ' ', ctrl: true });
    case 0x1c:
      return key('char', { char: '\\', ctrl: true });
    case 0x1d:
      return key('char', { char: ']', ctrl: true });
    case 0x1e:
      return key('char', { char: '^', ctrl: true });
    case 0x1f:
      return key('char', { char: '_', ctrl: true });
    default:
      if (code >= 0x01 && code <= 0x1a) return key('char', { char: String.fromCharCode(code + 0x60), ctrl: true });
      return null;
  }
}

const TILDE_KEYS: Record<number, KeyName> = {
  1: 'home',
  2: 'insert',
  3: 'delete',
  4: 'end',
  5: 'pageup',
  6: 'pagedown',
  7: 'home',
  8: 'end',
};

const TILDE_FKEYS: Record<number, number> = {
  11: 1,
  12: 2,
  13: 3,
  14: 4,
  15: 5,
  17: 6,
  18: 7,
  19: 8,
  20: 9,
  21: 10,
  23: 11,
  24: 12,
  25: 13,
  26: 14,
  28: 15,
  29: 16,
  31: 17,
  32: 18,
  33: 19,
  34: 20,
};

const LETTER_KEYS: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
const LETTER_FKEYS: Record<string, number> = { P: 1, Q: 2, R: 3, S: 4 };

/** Keypad keys in SS3 application mode (`ESC O p` … `ESC O y` are digits). */
const SS3_KEYPAD: Record<string, string> = {
  j: '*',
  k: '+',
  l: ',',
  m: '-',
  n: '.',
  o: '/',
  X: '=',
  p: '0',
  q: '1',
  r: '2',
  s: '3',
  t: '4',
  u: '5',
  v: '6',
  w: '7',
  x: '8',
  y: '9',
};

/** kitty's private-use key codes that stand for ordinary keys (keypad); modifier keys and others are dropped. */
const KITTY_KEYPAD: Record<number, string> = {
  57399: '0',
  57400: '1',
  57401: '2',
  57402: '3',
  57403: '4',
  57404: '5',
  57405: '6',
  57406: '7',
  57407: '8',
  57408: '9',
  57409: '.',
  57410: '/',
  57411: '*',
  57412: '-',
  57413: '+',
  57415: '=',
  57416: ',',
};
const KITTY_FUNCTIONAL: Record<number, KeyName> = {
  57414: 'enter',
  57417: 'left',
  57418: 'right',
  57419: 'up',
  57420: 'down',
  57421: 'pageup',
  57422: 'pagedown',
  57423: 'home',
  57424: 'end',
  57425: 'insert',
  57426: 'delete',
};

/** A key given by its Unicode code point plus modifiers (kitty CSI-u and xterm modifyOtherKeys). */
export function keyFromCodepoint(code: number, mods: Modifiers, kind: KeyKind, shiftedCode?: number): KeyEvent | null {
  const base = { ...mods, kind };
  switch (code) {
    case 13:
      return key('enter', base);
    case 9:
      return mods.shift ? key('backtab', base) : key('tab', base);
    case 27:
      return key('escape', base);
    case 127:
    case 8:
      return key('backspace', base);
  }
  const fn = KITTY_FUNCTIONAL[code];
  if (fn !== undefined) return key(fn, base);
  const pad = KITTY_KEYPAD[code];
  if (pad !== undefined) return key('char', { ...base, char: pad });
  if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code > 0x10ffff || (code >= 0xe000 && code <= 0xf8ff)) {
    return null;
  }
  if (code >= 0xd800 && code <= 0xdfff) return null;
  let char = String.fromCodePoint(code);
  if (mods.shift && shiftedCode !== undefined && shiftedCode >= 0x20 && shiftedCode <= 0x10ffff) {
    char = String.fromCodePoint(shiftedCode);
  } else if (mods.shift && !mods.ctrl && !mods.alt && !mods.meta && /^[a-z]$/.test(char)) {
    char = char.toUpperCase();
  }
  return key('char', { ...base, char });
}

/** Splits `1;5` / `97:65;2:3` into numbers per parameter and sub-parameter (empty → undefined). */
function parseParams(params: string): (number | undefined)[][] {
  if (params === '') return [];
  return params.split(';').map((p) => p.split(':').map((s) => (s === '' ? undefined : Number.parseInt(s, 10))));
}

/**
 * A complete CSI sequence `ESC [ params intermediates final`. Returns null for sequences that are not
 * keys (terminal replies, mouse, unknown) so the caller drops them; focus reports are the parser's.
 */
export function decodeCsi(params: string, intermediates: string, final: string): KeyEvent | null {
  if (intermediates !== '') return null;
  // Private-marker replies (`CSI ? 1 u`, `CSI > …`) and SGR mouse (`CSI < …`) are never keys.
  if (/^[<=>?]/.test(params)) return null;
  if (!/^[0-9;:]*$/.test(params)) return null;
  const p = parseParams(params);
  // Keys carry at most code;mods;text (kitty) or 27;mods;code (modifyOtherKeys).
  if (p.length > 3 || (p.length === 3 && final !== 'u' && final !== '~')) return null;
  const first = p[0]?.[0];
  const modParam = p[1]?.[0];
  const kindParam = p[1]?.[1];

  if (final === 'u') {
    if (first === undefined) return null;
    return keyFromCodepoint(first, decodeModifiers(modParam), kindOf(kindParam), p[0]?.[1]);
  }
  if (final === '~') {
    if (first === 27) {
      // xterm modifyOtherKeys: CSI 27 ; mods ; code ~
      const code = p[2]?.[0];
      if (code === undefined) return null;
      return keyFromCodepoint(code, decodeModifiers(modParam), 'press');
    }
    if (first === undefined || p.length > 2) return null;
    const mods = decodeModifiers(modParam);
    const kind = kindOf(kindParam);
    const name = TILDE_KEYS[first];
    if (name !== undefined) return key(name, { ...mods, kind });
    const fn = TILDE_FKEYS[first];
    if (fn !== undefined) return key('f', { ...mods, kind, fn });
    return null;
  }
  if (final === 'Z') return key('backtab', { ...decodeModifiers(modParam), shift: true });
  // Letter finals: `CSI A` or `CSI 1 ; mods A`.
  if (first !== undefined && first !== 1) return null;
  const mods = decodeModifiers(modParam);
  const kind = kindOf(kindParam);
  const name = LETTER_KEYS[final];
  if (name !== undefined) return key(name, { ...mods, kind });
  const fn = LETTER_FKEYS[final];
  if (fn !== undefined) return key('f', { ...mods, kind, fn });
  return null;
}

/** SS3 `ESC O [mods] final` (application cursor keys, F1–F4, keypad). */
export function decodeSs3(params: string, final: string): KeyEvent | null {
  if (!/^[0-9]*$/.test(params)) return null;
  const mods = decodeModifiers(params === '' ? undefined : Number.parseInt(params, 10));
  const name = LETTER_KEYS[final];
  if (name !== undefined) return key(name, mods);
  const fn = LETTER_FKEYS[final];
  if (fn !== undefined) return key('f', { ...mods, fn });
  if (final === 'M') return key('enter', mods);
  if (final === 'I') return key('tab', mods);
  const pad = SS3_KEYPAD[final];
  if (pad !== undefined) return key('char', { ...mods, char: pad });
  return null;
}

/** Linux console F1–F5: `ESC [ [ A` … `ESC [ [ E`. */
export function decodeLinuxConsoleFKey(final: string): KeyEvent | null {
  const n = 'ABCDE'.indexOf(final);
  return n < 0 ? null : key('f', { fn: n + 1 });
}

/** Adds Alt to a key that followed an ESC prefix. */
export function withAlt(ev: KeyEvent): KeyEvent {
  return { ...ev, alt: true };
}
