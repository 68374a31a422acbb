/**
 * The `commandExecution` thread item of an exec session within one turn: started by exec_command,
 * streamed to (live `outputDelta`s, coalesced as the shell tool's) by that call, by the process in
 * the background and by the turn's write_stdin calls, completed when the process exits, is ended,
 * or the turn ends with it still running (a call in a later turn opens a new item).
 */
import type { CommandExecutionStatus, ThreadItem } from '../../../protocol/api.js';
import { HeadTailBuffer } from '../output-cap.js';
import { OutputDeltaCoalescer } from '../output-deltas.js';

type CommandItem = Extract<ThreadItem, { type: 'commandExecution' }>;

export interface SessionItemSink {
  started(item: ThreadItem): void;
  delta(itemId: string, delta: string): void;
  /** Also told to the turn (its last tool call, its open items). */
  completed(item: ThreadItem): void;
}

export class SessionItem {
  private readonly aggregated = new HeadTailBuffer();
  private readonly deltas: OutputDeltaCoalescer;
  private done = false;
  private streamed = false;

  constructor(
    private readonly sink: SessionItemSink,
    private readonly base: Pick<CommandItem, 'id' | 'command' | 'commandActions' | 'cwd'>,
    /** The turn it belongs to. */
    readonly turnId: string,
    private readonly startedAtMs: number,
  ) {
    this.deltas = new OutputDeltaCoalescer({ send: (delta) => sink.delta(base.id, delta) });
  }

  get id(): string {
    return this.base.id;
  }

  /** The output streamed to it so far (head and tail when long). */
  get output(): string {
    return this.aggregated.toString();
  }

  get isDone(): boolean {
    return this.done;
  }

  /** The item as it stands, with `status`. */
  view(status: CommandExecutionStatus, exitCode: number | null = null, withOutput = false): ThreadItem {
    return {
      type: 'commandExecution',
      ...this.base,
      status,
      aggregatedOutput: withOutput ? this.aggregated.toString() : null,
      exitCode,
      durationMs: withOutput ? Date.now() - this.startedAtMs : null,
    };
  }

  start(): void {
    this.sink.started(this.view('inProgress'));
  }

  push(text: string): void {
    if (this.done || text.length === 0) return;
    this.aggregated.push(Buffer.from(text, 'utf8'));
    this.deltas.push(text);
    // The first output goes out at once (a prompt, a first line); later output is coalesced.
    if (!this.streamed) {
      this.streamed = true;
      this.deltas.flush();
    }
  }

  flush(): void {
    this.deltas.flush();
  }

  complete(outcome: { status: CommandExecutionStatus; exitCode: number | null }): void {
    if (this.done) return;
    this.deltas.flush();
    this.done = true;
    this.sink.completed(this.view(outcome.status, outcome.exitCode, true));
  }
}
