/**
 * A call's wait on its session (Codex's collect_output_until_deadline): everything printed until
 * the yield deadline, or until the process exited and its output closed, whichever comes first. An
 * exited process whose output stays open (a background child holds it) gets at most 50 ms more.
 * An interrupt ends the wait at once.
 */
import type { ProcessOutput } from './process-output.js';

export const POST_EXIT_CLOSE_WAIT_MS = 50;

export async function collectOutput(output: ProcessOutput, deadlineMs: number, signal?: AbortSignal): Promise<Buffer> {
  const parts: Buffer[] = [];
  const aborted = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  let postExitDeadline: number | null = null;
  for (;;) {
    if (output.hasPending) parts.push(output.drain());
    if ((output.exited && output.closed) || signal?.aborted) break;
    const now = Date.now();
    let wait = deadlineMs - now;
    if (wait <= 0) break;
    if (output.exited) {
      postExitDeadline ??= now + Math.min(wait, POST_EXIT_CLOSE_WAIT_MS);
      wait = postExitDeadline - now;
      if (wait <= 0) break;
    }
    await Promise.race([output.changed(wait), aborted]);
  }
  if (output.hasPending) parts.push(output.drain());
  return Buffer.concat(parts);
}
