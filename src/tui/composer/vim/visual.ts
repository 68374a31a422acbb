/**
 * Visual mode (`v`, charwise) and Visual-line mode (`V`): motions (with counts) and text objects
 * move the cursor end of the selection, `o` swaps the ends, and an operator acts on the selection:
 * `d x` delete, `c s` change, `y` yank, `> <` shift, `~ u U` case, `J` join, `r` replace, `p P`
 * put over it; `X D`, `C S R` and `Y` act on whole lines. Esc (or `v`/`V` again) leaves.
 */
import { commitTextArea, type ComposerState } from '../state.js';
import { replaceRange } from '../textarea.js';
import { charEnd, charStart, clampToLine, firstNonBlank, isEol, lineEnd, lineIndex, lineStart, lineStartAt } from './chars.js';
import { enterInsert } from './insert.js';
import { applyMotion, normalCursor, operate, type VimEnv } from './normal.js';
import { caseHow, changeCase, changeRange, deleteRange, joinLines, replaceChars, shiftLines, type OpRange } from './operators.js';
import { captureRange, insertContent, joinContents, readRegister, storeDelete } from './registers.js';
import { toNormal, type VisualExtent } from './state.js';
import { textObject } from './text-objects.js';
import type { Command } from './types.js';

/** The selection's ends, anchor first (the anchor clamped into the text). */
function ends(state: ComposerState): { anchor: number; cursor: number } {
  const cursor = state.ta.cursor;
  const anchor = Math.min(state.vim.anchor ?? cursor, state.ta.text.length);
  return { anchor, cursor };
}

/** What the selection covers: charwise through the character under its last end, or whole lines. */
export function selectionRange(state: ComposerState, linewise = state.vim.mode === 'visual-line'): OpRange {
  const { anchor, cursor } = ends(state);
  const text = state.ta.text;
  const s = Math.min(anchor, cursor);
  const e = Math.max(anchor, cursor);
  if (linewise) return { start: lineStart(text, s), end: lineEnd(text, e), linewise: true };
  return { start: s, end: charEnd(state.ta, e), linewise: false };
}

/** The selection's size, for `.`. */
export function visualExtent(state: ComposerState): VisualExtent {
  const { anchor, cursor } = ends(state);
  const ta = state.ta;
  const s = Math.min(anchor, cursor);
  const e = Math.max(anchor, cursor);
  const lines = lineIndex(ta.text, e) - lineIndex(ta.text, s);
  const linewise = state.vim.mode === 'visual-line';
  let chars = 0;
  for (let p = lines === 0 ? s : lineStart(ta.text, e); p < e; p = charEnd(ta, p)) chars++;
  return { linewise, lines, chars: lines === 0 ? chars + 1 : chars };
}

/** `.` after a Visual operator: a selection as large, from the cursor. */
export function reselect(state: ComposerState, extent: VisualExtent): ComposerState {
  const ta = state.ta;
  const text = ta.text;
  const line = Math.min(lineIndex(text, ta.cursor) + extent.lines, lineIndex(text, text.length));
  let end: number;
  if (extent.linewise) end = lineStartAt(text, line);
  else if (extent.lines === 0) {
    end = ta.cursor;
    for (let i = 1; i < extent.chars && !isEol(text, charEnd(ta, end)); i++) end = charEnd(ta, end);
  } else {
    end = lineStartAt(text, line);
    for (let i = 0; i < extent.chars && !isEol(text, charEnd(ta, end)); i++) end = charEnd(ta, end);
  }
  const vim = { ...state.vim, mode: extent.linewise ? ('visual-line' as const) : ('visual' as const), anchor: ta.cursor };
  return { ...state, ta: { ...ta, cursor: clampToLine(ta, end) }, vim };
}

function leave(state: ComposerState): ComposerState {
  return { ...state, vim: toNormal(state.vim) };
}

/** A text object in Visual mode: selects it (from a one-character selection) or extends the selection by it. */
function selectObject(state: ComposerState, object: string, count: number): ComposerState | null {
  const { anchor, cursor } = ends(state);
  const ta = state.ta;
  const backward = cursor < anchor;
  const from = anchor === cursor ? cursor : backward ? charStart(ta, cursor) : Math.min(charEnd(ta, cursor), ta.text.length);
  const span = textObject(ta, from, object, count);
  if (span === null) return null;
  const start = Math.min(span.start, span.end);
  let end = Math.max(span.start, span.end);
  if (span.linewise) {
    const a = anchor === cursor ? start : anchor;
    return {
      ...state,
      ta: { ...ta, cursor: backward ? start : lineStart(ta.text, end) },
      vim: { ...state.vim, mode: 'visual-line', anchor: a },
    };
  }
  if (!span.inclusive) {
    if (end <= start) return null;
    end = charStart(ta, end);
  }
  const a = anchor === cursor ? start : anchor;
  return { ...state, ta: { ...ta, cursor: clampToLine(ta, backward ? start : end) }, vim: { ...state.vim, mode: 'visual', anchor: a } };
}

/** `p`/`P` over the selection: the register replaces it; `p` puts what was selected in the unnamed register. */
function putOver(state: ComposerState, reg: string | null, keepRegisters: boolean): ComposerState | null {
  const content = readRegister(state.vim.registers, reg);
  if (content === null) return null;
  const range = selectionRange(state);
  const deleted = captureRange(state, range.start, range.end, range.linewise);
  const registers = keepRegisters ? state.vim.registers : storeDelete(state.vim.registers, null, deleted);
  const cleared = commitTextArea({ ...state, vim: { ...state.vim, registers } }, replaceRange(state.ta, range.start, range.end, ''));
  const wrapped = content.linewise && !range.linewise ? joinContents(['\n', content, '\n'], false) : { ...content, linewise: false };
  const { state: s, end } = insertContent(cleared, range.start, wrapped);
  if (content.linewise) {
    const first = range.linewise ? range.start : range.start + 1;
    return leave(normalCursor(s, firstNonBlank(s.ta.text, first)));
  }
  return leave(normalCursor(s, content.text.includes('\n') ? range.start : charStart(s.ta, end)));
}

/** One command in Visual mode; null when Vim would beep. */
export function runVisual(state: ComposerState, cmd: Command, env: VimEnv): ComposerState | null {
  if (cmd.kind === 'motion') return applyMotion(state, cmd.motion, cmd.count, env, true);
  if (cmd.kind === 'object') return selectObject(state, cmd.object, cmd.count ?? 1);
  if (cmd.kind !== 'action') return null;
  const { anchor, cursor } = ends(state);
  const mode = state.vim.mode;
  const start = Math.min(anchor, cursor);
  // Nothing selected (an empty last line): an operator leaves the text and the registers alone.
  const sel = selectionRange(state);
  const empty = !sel.linewise && sel.start === sel.end;
  if (empty && !['o', 'O', 'v', 'V', '<Esc>', 'c', 's', 'C', 'S', 'R'].includes(cmd.action)) return leave(state);
  switch (cmd.action) {
    case 'o':
    case 'O':
      return { ...state, ta: { ...state.ta, cursor: anchor }, vim: { ...state.vim, anchor: cursor } };
    case 'v':
    case 'V': {
      const target = cmd.action === 'v' ? 'visual' : 'visual-line';
      return mode === target ? leave(state) : { ...state, vim: { ...state.vim, mode: target } };
    }
    case '<Esc>':
      return leave(state);
    case 'd':
    case 'x':
    case '<Del>':
      return leave(deleteRange(state, selectionRange(state), cmd.reg));
    case 'X':
    case 'D':
      return leave(deleteRange(state, selectionRange(state, true), cmd.reg));
    case 'y':
      return leave(operate(state, 'y', selectionRange(state), cmd.reg, start));
    case 'Y':
      return leave(operate(state, 'y', selectionRange(state, true), cmd.reg, start));
    case 'c':
    case 's':
    case 'C':
    case 'S':
    case 'R': {
      const linewise = mode === 'visual-line' || cmd.action === 'C' || cmd.action === 'S' || cmd.action === 'R';
      const extent = visualExtent(state);
      return enterInsert(leave(changeRange(state, selectionRange(state, linewise), cmd.reg)), cmd, 1, extent);
    }
    case '>':
    case '<':
      return leave(shiftLines(state, selectionRange(state, true), cmd.action === '>', cmd.count ?? 1));
    case '~':
    case 'u':
    case 'U':
    case 'g~':
    case 'gu':
    case 'gU':
      return leave(changeCase(state, selectionRange(state), caseHow(cmd.action), start));
    case 'J':
    case 'gJ': {
      const r = selectionRange(state, true);
      const lines = lineIndex(state.ta.text, r.end) - lineIndex(state.ta.text, r.start) + 1;
      const joined = joinLines(state, r.start, lines, cmd.action === 'J');
      return joined === null ? null : leave(joined);
    }
    case 'r': {
      if (cmd.char === undefined || cmd.char === '\n') return null;
      const r = selectionRange(state);
      return leave(replaceChars(state, r.start, r.end, cmd.char, r.start));
    }
    case 'p':
    case 'P':
      return putOver(state, cmd.reg, cmd.action === 'P');
    default:
      return null;
  }
}
