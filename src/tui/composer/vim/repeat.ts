/**
 * `.`: the last change again, at the cursor (`:help .`). A count replaces the change's own count. A
 * change that typed text (`cwfoo<Esc>`, `Abar<Esc>`, `3ix<Esc>`) types it again; a Visual operator
 * acts on a selection as large as the last one, from the cursor.
 */
import type { ComposerState } from '../state.js';
import { applyInserted, leaveInsert } from './insert.js';
import { runNormal, type VimEnv } from './normal.js';
import type { RepeatRecord } from './state.js';
import type { Command } from './types.js';
import { reselect, runVisual } from './visual.js';

/** Commands `.` repeats (Normal mode; `y`, motions, `u` and the like change nothing to repeat). */
const NORMAL_CHANGES = new Set(['x', 'X', '<Del>', 's', 'S', 'C', 'D', 'p', 'P', 'J', 'gJ', '~', 'r', 'o', 'O', 'i', 'a', 'I', 'A']);
const VISUAL_CHANGES = new Set([
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
]);

export function isRepeatable(cmd: Command, visual: boolean): boolean {
  if (cmd.kind === 'operator') return cmd.op !== 'y';
  if (cmd.kind !== 'action') return false;
  return (visual ? VISUAL_CHANGES : NORMAL_CHANGES).has(cmd.action);
}

function withCount(cmd: Command, count: number | null): Command {
  return count === null ? cmd : { ...cmd, count };
}

export function repeatLastChange(state: ComposerState, count: number | null, env: VimEnv): ComposerState | null {
  const rec = state.vim.lastChange;
  if (rec === null) return null;
  const cmd = withCount(rec.cmd, count);
  let s = rec.visual !== null ? runVisual(reselect(state, rec.visual), cmd, env) : runNormal(state, cmd, env);
  if (s === null) return null;
  if (s.vim.mode === 'insert') {
    if (rec.insert !== null) s = applyInserted(s, rec.insert);
    s = leaveInsert(s);
  }
  const lastChange: RepeatRecord = { ...rec, cmd };
  return { ...s, vim: { ...s.vim, lastChange } };
}
