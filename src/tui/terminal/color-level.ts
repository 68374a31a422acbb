/**
 * How many colours the screen uses. chalk detects the terminal's support and FORCE_COLOR but not
 * NO_COLOR (no-color.org: any non-empty value turns colour off); FORCE_COLOR still wins over it.
 */
import { supportsColor } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

export function colorLevel(env: NodeJS.ProcessEnv, detected: ColorLevel = supportsColor === false ? 0 : supportsColor.level): ColorLevel {
  // chalk already applied FORCE_COLOR to what it detected.
  if (env.FORCE_COLOR !== undefined) return detected;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  return detected;
}
