/**
 * Keys to Vim commands: a key event becomes a token (a character, or `<Esc>`, `<CR>`, `<C-r>`…),
 * and the tokens of a command being typed parse into a Command once complete:
 *
 *     ["x] [count] operator [count] (motion | text object | the operator again)
 *     ["x] [count] motion | action
 *
 * Counts before and after the operator multiply (`2d3w` deletes six words).
 */
import type { KeyEvent } from '../../keys/types.js';
import { isMotionKey, needsChar } from './motions.js';
import { isRegisterName } from './registers.js';
import { isTextObject } from './text-objects.js';
import type { Command, MotionSpec, OperatorName } from './types.js';

/** The token for a key: a character as typed, else a `<Name>` (arrows as h/j/k/l, Home as 0, End as $). */
export function tokenOf(key: KeyEvent): string {
  const mod = key.ctrl || key.alt || key.meta;
  if (key.name === 'char') {
    if (key.char === undefined || key.char === '') return '<Other>';
    if (key.ctrl && !key.alt && !key.meta) return `<C-${key.char}>`;
    return mod ? '<Other>' : key.char;
  }
  if (mod) return '<Other>';
  switch (key.name) {
    case 'left':
      return 'h';
    case 'right':
      return 'l';
    case 'up':
      return 'k';
    case 'down':
      return 'j';
    case 'home':
      return '0';
    case 'end':
      return '$';
    case 'insert':
      return 'i';
    case 'escape':
      return '<Esc>';
    case 'enter':
      return key.shift ? '<Other>' : '<CR>';
    case 'backspace':
      return '<BS>';
    case 'delete':
      return '<Del>';
    case 'tab':
      return '<Tab>';
    default:
      return '<Other>';
  }
}

function isSpecial(token: string): boolean {
  return token.length > 1 && token.startsWith('<') && token.endsWith('>');
}

/** A character argument (`r`, `f`…): `<Tab>` is a tab, `<CR>` a line break where allowed. */
function charArg(token: string, allowNewline: boolean): string | null {
  if (token === '<Tab>') return '\t';
  if (token === '<CR>') return allowNewline ? '\n' : null;
  if (isSpecial(token)) return null;
  const c = token.codePointAt(0)!;
  return c < 0x20 || c === 0x7f ? null : token;
}

const OPERATORS = new Set<string>(['d', 'c', 'y', '>', '<', 'g~', 'gu', 'gU']);
const NORMAL_ACTIONS = new Set([
  'x',
  'X',
  '<Del>',
  's',
  'S',
  'C',
  'D',
  'Y',
  'p',
  'P',
  'J',
  'gJ',
  '~',
  'o',
  'O',
  'i',
  'a',
  'I',
  'A',
  'u',
  '<C-r>',
  '.',
  'v',
  'V',
  'r',
]);
const VISUAL_ACTIONS = new Set([
  'd',
  'x',
  'X',
  'D',
  '<Del>',
  'c',
  's',
  'C',
  'S',
  'R',
  'y',
  'Y',
  '>',
  '<',
  '~',
  'u',
  'U',
  'g~',
  'gu',
  'gU',
  'J',
  'gJ',
  'r',
  'p',
  'P',
  'o',
  'O',
  'v',
  'V',
  '<Esc>',
]);

export type ParseResult = { status: 'pending' } | { status: 'invalid' } | { status: 'ok'; cmd: Command };

const PENDING: ParseResult = { status: 'pending' };
const INVALID: ParseResult = { status: 'invalid' };

/** Parses the tokens typed so far. `visual`: operators act on the selection at once. */
export function parseCommand(tokens: readonly string[], visual: boolean): ParseResult {
  let i = 0;
  let count: number | null = null;
  let reg: string | null = null;
  const readCount = (): number | null => {
    if (!/^[1-9]$/.test(tokens[i] ?? '')) return null;
    let n = 0;
    while (/^[0-9]$/.test(tokens[i] ?? '')) n = Math.min(n * 10 + Number(tokens[i++]), 99_999);
    return n;
  };
  for (;;) {
    const t = tokens[i];
    if (t === undefined) return PENDING;
    if (t === '"') {
      const name = tokens[i + 1];
      if (name === undefined) return PENDING;
      if (!isRegisterName(name)) return INVALID;
      reg = name;
      i += 2;
      continue;
    }
    const n = readCount();
    if (n === null) break;
    count = (count ?? 1) * n;
  }
  if (tokens[i] === undefined) return PENDING;
  let key = tokens[i++]!;
  if (key === 'g') {
    const next = tokens[i++];
    if (next === undefined) return PENDING;
    key = `g${next}`;
  }
  const motion = readMotion(key, tokens, i);
  if (motion === 'pending') return PENDING;
  if (motion !== null) return { status: 'ok', cmd: { kind: 'motion', count, motion: motion.spec } };

  if (visual) {
    if (key === 'i' || key === 'a') {
      const k = tokens[i];
      if (k === undefined) return PENDING;
      return isTextObject(key + k) ? { status: 'ok', cmd: { kind: 'object', count, object: key + k } } : INVALID;
    }
    if (!VISUAL_ACTIONS.has(key)) return INVALID;
    return action(key, count, reg, tokens[i]);
  }

  if (OPERATORS.has(key)) {
    const op = key as OperatorName;
    const opCount = readCount();
    const total = count === null && opCount === null ? null : (count ?? 1) * (opCount ?? 1);
    let t = tokens[i++];
    if (t === undefined) return PENDING;
    const doubled = op.length === 2 ? op[1]! : op;
    if (t === doubled) return { status: 'ok', cmd: { kind: 'operator', count: total, reg, op, target: { type: 'line' } } };
    if (t === 'i' || t === 'a') {
      const k = tokens[i];
      if (k === undefined) return PENDING;
      if (!isTextObject(t + k)) return INVALID;
      return { status: 'ok', cmd: { kind: 'operator', count: total, reg, op, target: { type: 'object', object: t + k } } };
    }
    if (t === 'g') {
      const next = tokens[i++];
      if (next === undefined) return PENDING;
      // `g~g~`, `gugu`, `gUgU`: the operator typed twice in full.
      if (op.length === 2 && next === op[1])
        return { status: 'ok', cmd: { kind: 'operator', count: total, reg, op, target: { type: 'line' } } };
      t = `g${next}`;
    }
    const m = readMotion(t, tokens, i);
    if (m === 'pending') return PENDING;
    if (m === null) return INVALID;
    return { status: 'ok', cmd: { kind: 'operator', count: total, reg, op, target: { type: 'motion', motion: m.spec } } };
  }
  if (!NORMAL_ACTIONS.has(key)) return INVALID;
  return action(key, count, reg, tokens[i]);
}

function action(key: string, count: number | null, reg: string | null, next: string | undefined): ParseResult {
  if (key !== 'r') return { status: 'ok', cmd: { kind: 'action', count, reg, action: key } };
  if (next === undefined) return PENDING;
  const ch = charArg(next, true);
  return ch === null ? INVALID : { status: 'ok', cmd: { kind: 'action', count, reg, action: 'r', char: ch } };
}

function readMotion(key: string, tokens: readonly string[], i: number): { spec: MotionSpec } | 'pending' | null {
  if (!isMotionKey(key)) return null;
  if (!needsChar(key)) return { spec: { key } };
  const t = tokens[i];
  if (t === undefined) return 'pending';
  const ch = charArg(t, false);
  return ch === null ? null : { spec: { key, char: ch } };
}
