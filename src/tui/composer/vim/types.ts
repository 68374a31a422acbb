/**
 * The shapes shared by the Vim modules: a parsed command (what the keys asked for), the last `f`/`t`
 * search and the mode names. The Vim state itself is in state.ts.
 */

export type VimMode = 'normal' | 'insert' | 'visual' | 'visual-line';

export type OperatorName = 'd' | 'c' | 'y' | '>' | '<' | 'g~' | 'gu' | 'gU';

/** A motion key: `w`, `gg`, `f` (with `char`)… */
export interface MotionSpec {
  key: string;
  /** The character argument of `f`, `F`, `t`, `T`. */
  char?: string;
}

/** What an operator acts on: a motion, a text object (`iw`, `a(`…) or whole lines (`dd`, `>>`). */
export type Target = { type: 'motion'; motion: MotionSpec } | { type: 'object'; object: string } | { type: 'line' };

export type Command =
  | { kind: 'motion'; count: number | null; motion: MotionSpec }
  | { kind: 'operator'; count: number | null; reg: string | null; op: OperatorName; target: Target }
  /** Everything else: `x`, `p`, `i`, `u`, `.`, `r` (with `char`), `v`, and in Visual mode the operators on the selection. */
  | { kind: 'action'; count: number | null; reg: string | null; action: string; char?: string }
  /** A text object in Visual mode: extends the selection. */
  | { kind: 'object'; count: number | null; object: string };

/** The last `f`/`F`/`t`/`T`, for `;` and `,`. */
export interface FindState {
  cmd: 'f' | 'F' | 't' | 'T';
  char: string;
}
