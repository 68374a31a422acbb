/**
 * What a first Enter would do for the first time, done in the pause after the server starts: zod
 * building turn/start's parser, then (after a poll phase, so keys that came meanwhile are read in
 * between) the host time zone, whose first lookup loads ICU's zone data.
 */
import { warmTurnStartParams } from './app-server-params.js';
import { hostTimeZone } from './context/environment-context.js';

export function warmFirstTurn(): void {
  warmTurnStartParams();
  setImmediate(hostTimeZone).unref();
}
