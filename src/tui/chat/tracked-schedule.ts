/** A scheduler whose pending timers are kept in `timers`, so the owner's dispose() can cancel them all. */
import type { Schedule } from './turn/delta-buffer.js';

export function trackedSchedule(schedule: Schedule, timers: Set<() => void>): Schedule {
  return (fn, ms) => {
    const cancel = schedule(() => {
      timers.delete(cancel);
      fn();
    }, ms);
    timers.add(cancel);
    return () => {
      timers.delete(cancel);
      cancel();
    };
  };
}
