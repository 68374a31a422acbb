/**
 * What the client knows about the thread's turn, kept straight across races: the routing cache of
 * §2.4 (the id `turn/steer` expects, corrected by server answers), a turn/start in flight, and the
 * turn between turn/started and turn/completed. Notifications and request answers may arrive in
 * either order, so ids already started or completed are remembered.
 */
export class TurnTracker {
  /** The id steers are sent with; null when the thread is believed idle. */
  cachedId: string | null = null;
  private current: string | null = null;
  private startPending = false;
  private readonly started = new Set<string>();
  private readonly completed = new Set<string>();
  private readonly errorShown = new Set<string>();

  /** A turn runs, or a turn/start was sent and its turn has not started yet. */
  get running(): boolean {
    return this.current !== null || this.startPending;
  }

  get currentId(): string | null {
    return this.current;
  }

  beginStart(): void {
    this.startPending = true;
  }

  startFailed(): void {
    this.startPending = false;
  }

  /** turn/start answered with `id`; its turn/started (even turn/completed) may already be in. */
  startAnswered(id: string): void {
    this.startPending = !this.started.has(id) && !this.completed.has(id);
  }

  /** The server told us the active turn (a start answer, a mismatch, or none). */
  serverActive(id: string | null): void {
    if (id === null || !this.completed.has(id)) this.cachedId = id;
  }

  turnStarted(id: string): void {
    this.started.add(id);
    this.startPending = false;
    this.current = id;
    this.cachedId = id;
  }

  /** False when `id` is not the current turn (a stale completion, ignored). */
  turnCompleted(id: string): boolean {
    if (this.current !== null && this.current !== id) return false;
    this.completed.add(id);
    this.current = null;
    this.startPending = false;
    if (this.cachedId === id) this.cachedId = null;
    return true;
  }

  /** The turn to interrupt. */
  interruptTarget(): string | null {
    return this.cachedId ?? this.current;
  }

  markErrorShown(turnId: string): void {
    this.errorShown.add(turnId);
  }

  /** Whether an error cell was already shown for the turn (asked once, at its end). */
  takeErrorShown(turnId: string): boolean {
    return this.errorShown.delete(turnId);
  }
}
