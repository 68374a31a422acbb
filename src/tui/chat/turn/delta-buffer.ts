/**
 * Streaming deltas are handed to the store at most once per frame (30 a second: text arrives no
 * faster than it can be read, and each frame lays out and draws the live area), so a 10,000-delta
 * answer costs a few hundred renders, not 10,000. The first delta after a quiet frame is written at
 * once (the leading edge: the first words of an answer or a command's output never wait a frame);
 * what follows within the frame is batched and written when it ends. Time comes from an injected
 * scheduler.
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
    this.write();
  }

  /** Forget what is buffered (the item it belonged to is finished or gone). */
  discard(): void {
    this.cancel?.();
    this.cancel = null;
    this.agent = '';
    this.command = '';
    this.reasoning = '';
  }

  /** Outside a frame: write now and open one; inside: the frame's end writes what gathered. */
  private arm(): void {
    if (this.cancel !== null) return;
    this.write();
    this.openFrame();
  }

  private openFrame(): void {
    this.cancel = this.schedule(() => {
      this.cancel = null;
      // Something came during the frame: write it and keep batching; a quiet frame ends the run.
      if (this.write()) this.openFrame();
    }, this.frameMs);
  }

  /** Hands over what is buffered; false when there was nothing. */
  private write(): boolean {
    if (this.agent === '' && this.command === '' && this.reasoning === '') return false;
    const deltas = { agent: this.agent, command: this.command, reasoning: this.reasoning };
    this.agent = '';
    this.command = '';
    this.reasoning = '';
    this.apply(deltas);
    return true;
  }
}
