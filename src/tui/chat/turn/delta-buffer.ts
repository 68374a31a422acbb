/**
 * Streaming deltas are buffered and handed to the store at most once per frame (30 a second: text
 * arrives no faster than it can be read, and each frame lays out and draws the live area), so a
 * 10,000-delta answer costs a few hundred renders, not 10,000. Time comes from an injected scheduler.
 */

/** Run `fn` after `ms`; returns a function that cancels it. */
export type Schedule = (fn: () => void, ms: number) => () => void;

export const FRAME_MS = 33;

export interface PendingDeltas {
  agent: string;
  command: string;
  reasoning: string;
}

export class DeltaBuffer {
  private agent = '';
  private command = '';
  private reasoning = '';
  private cancel: (() => void) | null = null;

  constructor(
    private readonly schedule: Schedule,
    private readonly apply: (deltas: PendingDeltas) => void,
    private readonly frameMs = FRAME_MS,
  ) {}

  pushAgent(delta: string): void {
    this.agent += delta;
    this.arm();
  }

  pushCommand(delta: string): void {
    this.command += delta;
    this.arm();
  }

  pushReasoning(delta: string): void {
    this.reasoning += delta;
    this.arm();
  }

  /** Write what is buffered now (before any event whose order matters, e.g. item/completed). */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.agent === '' && this.command === '' && this.reasoning === '') return;
    const deltas = { agent: this.agent, command: this.command, reasoning: this.reasoning };
    this.agent = '';
    this.command = '';
    this.reasoning = '';
    this.apply(deltas);
  }

  /** Forget what is buffered (the item it belonged to is finished or gone). */
  discard(): void {
    this.cancel?.();
    this.cancel = null;
    this.agent = '';
    this.command = '';
    this.reasoning = '';
  }

  private arm(): void {
    if (this.cancel !== null) return;
    this.cancel = this.schedule(() => {
      this.cancel = null;
      this.flush();
    }, this.frameMs);
  }
}
