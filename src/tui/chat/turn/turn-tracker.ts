/**
 * What the client knows about the thread's turn, kept straight across races: the routing cache
 * (the id `turn/steer` expects, corrected by server answers: docs/codex-parity.md#steer-or-start), a turn/start in flight, and the
 * turn between turn/started and turn/completed. Notifications and request answers may arrive in
 * either order, so ids already started or completed are remembered. It is the one owner of "a
 * turn is running": whoever shows it (the composer's Tab-queues rule) is told of each change.
 */
export type StartAnswer = 'started' | 'steered';

export class TurnTracker {
  /** The id steers are sent with; null when the thread is believed idle. */
  cachedId: string | null = null;
  private current: string | null = null;
  private startPending = false;
  /** Esc / Ctrl+C came while the turn's id was not known yet; sent once it is. */
  private interruptDeferred = false;
  private readonly started = new Set<string>();
  private readonly completed = new Set<string>();
  private readonly steeredStarts = new Set<string>();
  private readonly errorShown = new Set<string>();
  private wasRunning = false;

  constructor(private readonly onRunningChange: (running: boolean) => void = () => undefined) {}

  /** After each change: tells the listener when `running` flipped. */
  private changed(): void {
    if (this.running === this.wasRunning) return;
    this.wasRunning = this.running;
    this.onRunningChange(this.running);
  }

  /** A turn runs, or a turn/start was sent and its turn has not started yet. */
  get running(): boolean {
    return this.current !== null || this.startPending;
  }

  get currentId(): string | null {
    return this.current;
  }

  beginStart(): void {
    this.startPending = true;
    this.changed();
  }

  startFailed(): void {
    this.startPending = false;
    if (!this.running) this.interruptDeferred = false;
    this.changed();
  }

  /**
   * turn/start answered with `id`; its turn/started (even turn/completed) may already be in. While
   * another turn runs, the runtime steered the input into that turn instead (Codex: turn/start on
   * an active regular turn steers it but answers with the new submission id): 'steered'.
   */
  startAnswered(id: string): StartAnswer {
    if (this.current !== null && this.current !== id && !this.started.has(id) && !this.completed.has(id)) {
      this.steeredStarts.add(id);
      // Steers and interrupts go to the running turn, not to the alias the answer carried.
      if (this.cachedId === id) this.cachedId = this.current;
      return 'steered';
    }
    this.startPending = !this.started.has(id) && !this.completed.has(id);
    this.changed();
    return 'started';
  }

  /** The server told us the active turn (a start answer, a mismatch, or none). */
  serverActive(id: string | null): void {
    if (id === null || !this.completed.has(id)) this.cachedId = id;
  }

  /** True when `id` was answered as steered but began a turn of its own after all. */
  turnStarted(id: string): boolean {
    this.started.add(id);
    this.startPending = false;
    this.current = id;
    this.cachedId = id;
    this.changed();
    return this.steeredStarts.delete(id);
  }

  /** False when `id` is not the current turn (a stale completion, ignored). */
  turnCompleted(id: string): boolean {
    if (this.current !== null && this.current !== id) return false;
    this.completed.add(id);
    this.current = null;
    this.startPending = false;
    this.interruptDeferred = false;
    if (this.cachedId === id) this.cachedId = null;
    this.changed();
    return true;
  }

  /** The turn to interrupt. */
  interruptTarget(): string | null {
    return this.cachedId ?? this.current;
  }

  /**
   * Esc / Ctrl+C on a running turn: the id to interrupt now, or null. Between Enter and the first
   * answer naming the turn the id is unknown: the interrupt is remembered for takeDeferredInterrupt.
   */
  requestInterrupt(): string | null {
    const target = this.interruptTarget();
    if (target === null && this.running) this.interruptDeferred = true;
    return target;
  }

  get interruptRemembered(): boolean {
    return this.interruptDeferred;
  }

  /** The id a remembered interrupt goes to, once it is known (asked after each answer naming a turn). */
  takeDeferredInterrupt(): string | null {
    if (!this.interruptDeferred) return null;
    const target = this.interruptTarget();
    if (target !== null) this.interruptDeferred = false;
    return target;
  }

  markErrorShown(turnId: string): void {
    this.errorShown.add(turnId);
  }

  /** Whether an error cell was already shown for the turn (asked once, at its end). */
  takeErrorShown(turnId: string): boolean {
    return this.errorShown.delete(turnId);
  }
}
