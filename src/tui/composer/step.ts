/**
 * What one reducer step gives back (the reducer's output plus what undo tracking and history
 * browsing need to know), shared by the reducer and the submission keys (submit-key.ts).
 */
import type { ComposerState } from './state.js';
import type { TrackedStep } from './track-edits.js';
import type { ComposerEffect, InputResult } from './types.js';

export interface ComposerOutput {
  state: ComposerState;
  result: InputResult;
  effects: ComposerEffect[];
  /**
   * False when the composer had nothing to do with the key and the app should decide: Ctrl+C or
   * Ctrl+D on an empty composer (quit), Esc with nothing to close (interrupt while a task runs).
   */
  handled: boolean;
}

export const NONE: InputResult = { type: 'none' };

export interface Step extends ComposerOutput, TrackedStep {
  /** The text changed because history was browsed (so browsing continues). */
  navigated?: boolean;
}

export function step(state: ComposerState, result: InputResult = NONE, effects: ComposerEffect[] = [], handled = true): Step {
  return { state, result, effects, handled };
}

export function withHistory(state: ComposerState, history: ComposerState['history']): ComposerState {
  return history === state.history ? state : { ...state, history };
}
