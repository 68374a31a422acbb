/**
 * Normal-mode commands: motions, operators with a motion, text object or line (`dd`, `>>`), and
 * the single-key changes (`x X r s S C D Y p P J ~ o O i a I A u <C-r> v V`). Each returns the new
 * state, or null when Vim would beep (nothing changes). `.` is repeat.ts; undo recording is the
 * caller's (index.ts).
 */
import { commitTextArea, type ComposerState } from '../state.js';
import { insertText, replaceRange, setCursor } from '../textarea.js';
import { redoDraft, undoDraft } from '../undo.js';
import { charEnd, charStart, clampToLine, firstNonBlank, isEol, lineCount, lineEnd, lineIndex, lineStart, lineStartAt } from './chars.js';
import { enterInsert } from './insert.js';
import { runMotion, type MotionResult } from './motions.js';
import {
  caseHow,
  changeCase,
  changeRange,
  deleteBecomesLinewise,
  deleteRange,
  joinLines,
  replaceChars,
  resolveSpan,
  shiftLines,
  yankRange,
  type OpRange,
} from './operators.js';
import { insertContent, joinContents, readRegister, repeatContent } from './registers.js';
import { textObject, type Span } from './text-objects.js';
import type { Command, MotionSpec, OperatorName, Target } from './types.js';

export interface VimEnv {
  /** Wrap width on screen (`j`/`k` move by screen row). */
  width: number | null;
}

/** The caret as Normal mode keeps it. */
export function normalCursor(state: ComposerState, pos: number, preferredCol?: number | null): ComposerState {
  const ta = setCursor(state.ta, pos);
  const cursor = clampToLine(ta, ta.cursor);
  return { ...state, ta: { ...ta, cursor, preferredCol: preferredCol === undefined ? null : preferredCol } };
}

export function applyMotion(
  state: ComposerState,
  motion: MotionSpec,
  count: number | null,
  env: VimEnv,
  visual: boolean,
): ComposerState | null {
  const r = runMotion({ ta: state.ta, width: env.width, lastFind: state.vim.lastFind, op: null, visual }, motion, count);
  if (r === null) return null;
  const moved = normalCursor(state, r.pos, r.preferredCol);
  return r.find === undefined ? moved : { ...moved, vim: { ...moved.vim, lastFind: r.find } };
}

/** The span of an operator's target, and where a yank leaves the cursor. */
function targetSpan(
  state: ComposerState,
  op: OperatorName,
  target: Target,
  count: number | null,
  env: VimEnv,
): { span: Span; cursor: number; motion: MotionResult | null } | null {
  const ta = state.ta;
  const cursor = ta.cursor;
  if (target.type === 'line') {
    const n = count ?? 1;
    const cur = lineIndex(ta.text, cursor);
    const last = lineCount(ta.text) - 1;
    if (n > 1 && cur === last) return null;
    const end = lineStartAt(ta.text, Math.min(last, cur + n - 1));
    return { span: { start: lineStartAt(ta.text, cur), end, inclusive: false, linewise: true }, cursor, motion: null };
  }
  if (target.type === 'object') {
    const span = textObject(ta, cursor, target.object, count ?? 1);
    return span === null ? null : { span, cursor: Math.min(span.start, span.end), motion: null };
  }
  const r = runMotion({ ta, width: env.width, lastFind: state.vim.lastFind, op, visual: false }, target.motion, count);
  if (r === null) return null;
  const span = { start: cursor, end: r.pos, inclusive: r.type === 'inclusive', linewise: r.type === 'linewise' };
  return { span, cursor: Math.min(cursor, r.pos), motion: r };
}

/** An operator over a range: `c` leaves Insert mode to the caller. */
export function operate(
  state: ComposerState,
  op: OperatorName,
  range: OpRange,
  reg: string | null,
  yankCursor: number,
  shift = 1,
): ComposerState {
  switch (op) {
    case 'y':
      return yankRange(state, range, reg, range.linewise ? yankCursor : range.start);
    case 'd': {
      const r = deleteBecomesLinewise(state.ta.text, range)
        ? { start: lineStart(state.ta.text, range.start), end: lineEnd(state.ta.text, range.end), linewise: true }
        : range;
      return deleteRange(state, r, reg);
    }
    case 'c':
      return changeRange(state, range, reg);
    case '>':
    case '<':
      return shiftLines(state, range, op === '>', shift);
    case 'g~':
    case 'gu':
    case 'gU':
      return changeCase(state, range, caseHow(op), range.linewise ? yankCursor : range.start);
  }
}

export function runOperator(state: ComposerState, cmd: Extract<Command, { kind: 'operator' }>, env: VimEnv): ComposerState | null {
  const t = targetSpan(state, cmd.op, cmd.target, cmd.count, env);
  if (t === null) return null;
  const range = resolveSpan(state.ta, t.span);
  const found = t.motion?.find;
  const s = found === undefined ? state : { ...state, vim: { ...state.vim, lastFind: found } };
  // An empty charwise range (`di(` on `()`) changes nothing; `c` still starts typing there.
  if (!range.linewise && range.start === range.end && cmd.op !== 'c') return s;
  const out = operate(s, cmd.op, range, cmd.reg, t.cursor);
  return cmd.op === 'c' ? enterInsert(out, cmd, 1) : out;
}

function asOperator(cmd: Extract<Command, { kind: 'action' }>, op: OperatorName, target: Target): Extract<Command, { kind: 'operator' }> {
  return { kind: 'operator', count: cmd.count, reg: cmd.reg, op, target };
}

const motion = (key: string): Target => ({ type: 'motion', motion: { key } });

/** `p`/`P`: after/before the cursor, linewise below/above the line, count times. */
function put(state: ComposerState, reg: string | null, count: number, before: boolean): ComposerState | null {
  const content = readRegister(state.vim.registers, reg);
  if (content === null || (content.text === '' && !content.linewise)) return null;
  const ta = state.ta;
  const text = ta.text;
  if (content.linewise) {
    const lines = repeatContent(content, count);
    const at = before ? lineStart(text, ta.cursor) : lineEnd(text, ta.cursor);
    const put = insertContent(state, at, before ? joinContents([lines, '\n'], false) : joinContents(['\n', lines], false)).state;
    const first = before ? at : at + 1;
    return normalCursor(put, firstNonBlank(put.ta.text, first));
  }
  const rep = repeatContent(content, count);
  const at = before || isEol(text, ta.cursor) ? ta.cursor : charEnd(ta, ta.cursor);
  const { state: s, end } = insertContent(state, at, rep);
  // One line: on its last character; several: on the first.
  return normalCursor(s, rep.text.includes('\n') ? at : charStart(s.ta, end));
}

/** `r`: the count characters from the cursor become `ch` (`r<CR>`: one line break). */
function replace(state: ComposerState, ch: string, count: number): ComposerState | null {
  const ta = state.ta;
  let end = ta.cursor;
  let last = ta.cursor;
  for (let i = 0; i < count; i++) {
    if (isEol(ta.text, end)) return null;
    last = end;
    end = charEnd(ta, end);
  }
  if (ch === '\n') return normalCursor(commitTextArea(state, replaceRange(ta, ta.cursor, end, '\n')), ta.cursor + 1);
  return replaceChars(state, ta.cursor, end, ch, last);
}

/** `~`: the case of the count characters from the cursor, which moves past them. */
function tilde(state: ComposerState, count: number): ComposerState | null {
  const ta = state.ta;
  let end = ta.cursor;
  for (let i = 0; i < count && !isEol(ta.text, end); i++) end = charEnd(ta, end);
  if (end === ta.cursor) return null;
  return changeCase(state, { start: ta.cursor, end, linewise: false }, 'toggle', end);
}

function undoSteps(state: ComposerState, count: number, redo: boolean): ComposerState | null {
  let s = state;
  for (let i = 0; i < count; i++) {
    const next = redo ? redoDraft(s) : undoDraft(s);
    if (next === null) break;
    s = next;
  }
  return s === state ? null : normalCursor(s, s.ta.cursor);
}

/** One Normal-mode command (not `.`). */
export function runNormal(state: ComposerState, cmd: Command, env: VimEnv): ComposerState | null {
  if (cmd.kind === 'motion') return applyMotion(state, cmd.motion, cmd.count, env, false);
  if (cmd.kind === 'operator') return runOperator(state, cmd, env);
  if (cmd.kind !== 'action') return null;
  const n = cmd.count ?? 1;
  const ta = state.ta;
  const text = ta.text;
  switch (cmd.action) {
    case 'x':
    case '<Del>':
      return runOperator(state, asOperator(cmd, 'd', motion('l')), env);
    case 'X':
      return runOperator(state, asOperator(cmd, 'd', motion('h')), env);
    case 'D':
      return runOperator(state, asOperator(cmd, 'd', motion('$')), env);
    case 'C':
      return runOperator(state, asOperator(cmd, 'c', motion('$')), env);
    case 's':
      // `cl`; on an empty line there is nothing to change, typing starts anyway.
      return runOperator(state, asOperator(cmd, 'c', motion('l')), env) ?? enterInsert(state, cmd, 1);
    case 'S':
      return runOperator(state, asOperator(cmd, 'c', { type: 'line' }), env);
    case 'Y':
      return runOperator(state, asOperator(cmd, 'y', { type: 'line' }), env);
    case 'p':
    case 'P':
      return put(state, cmd.reg, n, cmd.action === 'P');
    case 'J':
    case 'gJ':
      return joinLines(state, ta.cursor, cmd.count ?? 2, cmd.action === 'J');
    case '~':
      return tilde(state, n);
    case 'r':
      return cmd.char === undefined ? null : replace(state, cmd.char, n);
    case 'i':
      return enterInsert(state, cmd, n);
    case 'a':
      return enterInsert({ ...state, ta: setCursor(ta, isEol(text, ta.cursor) ? ta.cursor : charEnd(ta, ta.cursor)) }, cmd, n);
    case 'I':
      return enterInsert({ ...state, ta: setCursor(ta, firstNonBlank(text, ta.cursor)) }, cmd, n);
    case 'A':
      return enterInsert({ ...state, ta: setCursor(ta, lineEnd(text, ta.cursor)) }, cmd, n);
    case 'o':
      return enterInsert(commitTextArea(state, insertText(setCursor(ta, lineEnd(text, ta.cursor)), '\n')), cmd, n);
    case 'O': {
      const bol = lineStart(text, ta.cursor);
      const opened = commitTextArea(state, insertText(setCursor(ta, bol), '\n'));
      return enterInsert({ ...opened, ta: setCursor(opened.ta, bol) }, cmd, n);
    }
    case 'u':
      return undoSteps(state, n, false);
    case '<C-r>':
      return undoSteps(state, n, true);
    case 'v':
    case 'V':
      return { ...state, vim: { ...state.vim, mode: cmd.action === 'v' ? 'visual' : 'visual-line', anchor: ta.cursor } };
    default:
      return null;
  }
}
