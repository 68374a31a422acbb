/**
 * A Tiller that exits while a checkpoint is being recorded (the TUI gives a pending record half a
 * second, then process.exit()) leaves no git writing under its home, and no lock that would fail
 * the next record.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/runtime/checkpoints/store.js';
import { tempDir } from '../support/harness.js';
import { alive, until } from '../support/process.js';
import { runSupportScript } from '../support/spawn.js';

/** Alive and not a zombie waiting for a reaper (the git's parent, the Tiller, is gone). */
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/su.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('exit during a checkpoint record', () => {
  it('kills the running git and drops the locks, so the next record works', async () => {
    const home = tempDir();
    const ws = tempDir();
    const { pids, dir } = await runSupportScript<{ pids: number[]; dir: string }>('exit-while-recording', [home, ws]);
    expect(pids.length).toBeGreaterThan(0);
    // Killed at exit, not left to finish on their own (a record of this workspace takes seconds).
    await until(() => pids.every((pid) => !running(pid)), 1_000);
    expect(existsSync(join(dir, 'index.lock'))).toBe(false);
    expect(existsSync(join(dir, 'tiller.lock'))).toBe(false);
    const started = Date.now();
    expect((await new CheckpointStore(home, ws).record()).ok).toBe(true);
    // Nothing was waited for: no lock was left to age.
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 60_000);
});
