/** Waiting on processes and conditions in runtime tests. */
import { existsSync, readFileSync } from 'node:fs';

/** Whether a process with this pid still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; rejects after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until a command has written its pid (`echo $$ > file`) and returns it. */
export async function waitForPid(file: string, timeoutMs?: number): Promise<number> {
  const read = (): string => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');
  await until(() => read().length > 0, timeoutMs);
  return Number(read());
}
