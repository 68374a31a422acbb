/**
 * Process groups of the commands and hooks Tiller started (each spawned detached, leading its own
 * group). They are killed when the process exits (returning from main, or process.exit() as the
 * TUI's signal guards do), so a command never outlives the Tiller that ran it. A fatal signal with
 * no handler skips 'exit' handlers, which is why `tiller exec` handles SIGTERM and SIGHUP.
 */
const live = new Set<number>();
let exitHookInstalled = false;

export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function killAll(): void {
  for (const pid of live) killProcessGroup(pid);
  live.clear();
}

/** Tracks a running group until the returned function is called (when the process has closed). */
export function trackProcessGroup(pid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' handlers may only do synchronous work; process.kill is.
    process.on('exit', killAll);
  }
  live.add(pid);
  return () => void live.delete(pid);
}

/** Groups currently tracked (for tests). */
export function trackedProcessGroups(): number[] {
  return [...live];
}
