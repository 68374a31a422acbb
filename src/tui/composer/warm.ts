/**
 * A draft's first Enter compiles most of the reducer's submission path (V8 compiles a function when
 * it first runs), a few ms that stood between the first Enter and its request. Run once in the pause
 * after the first frame, on a scratch copy of the state: the reducer is pure, so nothing is sent,
 * stored or drawn.
 */
import type { KeyEvent } from '../keys/types.js';
import { composerReducer, type ComposerState } from './reducer.js';

const key = (name: KeyEvent['name'], char?: string): KeyEvent => ({
  type: 'key',
  name,
  ...(char === undefined ? {} : { char }),
  kind: 'press',
  ctrl: false,
  alt: false,
  shift: false,
  meta: false,
});

/** The result of typing a character and, a second later (past any paste-burst window), Enter. */
export function warmSubmission(state: ComposerState, now: number): ReturnType<typeof composerReducer>['result'] {
  const typed = composerReducer(state, key('char', 'x'), now).state;
  return composerReducer(typed, key('enter'), now + 1_000).result;
}
