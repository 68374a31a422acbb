/**
 * The thread's running exec sessions (Codex's unified exec process store): a command still running
 * after its yield keeps a session id that `write_stdin` names. Ids are random in 1000–99999, as
 * Codex's. At most MAX_EXEC_SESSIONS live at once: storing one more prunes, as Codex does, the
 * least recently used session that is not among the 8 most recent, an exited one first. Sessions
 * outlive the turn that started them; an interrupt and the thread's shutdown end them all.
 */
import type { ExecProcess } from './exec-process.js';
import { OutputTail } from './output-tail.js';
import type { SessionItem } from './session-item.js';

export const MAX_EXEC_SESSIONS = 64;
/** From this many on, the model is told to reuse or close sessions (Codex's warning threshold). */
export const WARN_EXEC_SESSIONS = 60;
const PROTECTED_RECENT = 8;

export interface ExecSession {
  readonly id: number;
  readonly process: ExecProcess;
  /** The command as the thread item shows it. */
  readonly command: string;
  readonly startedAtMs: number;
  lastUsedMs: number;
  /** Set by the store: the last line of output (/ps). */
  tail?: OutputTail;
  /** The thread item its calls stream to (a later turn's call opens a new one). */
  item: SessionItem;
}

export class ExecSessionStore {
  private readonly sessions = new Map<number, ExecSession>();
  private readonly reserved = new Set<number>();

  constructor(private readonly randomId: () => number = () => 1000 + Math.floor(Math.random() * 99_000)) {}

  /** A fresh id, reserved until released or stored. */
  allocateId(): number {
    for (;;) {
      const id = this.randomId();
      if (!this.reserved.has(id)) {
        this.reserved.add(id);
        return id;
      }
    }
  }

  release(id: number): void {
    this.reserved.delete(id);
    this.sessions.delete(id);
  }

  /** Stores a running session; returns how many are open now. */
  store(session: ExecSession): number {
    if (this.sessions.size >= MAX_EXEC_SESSIONS) this.prune();
    const tail = new OutputTail();
    session.tail = tail;
    // What the call already collected, then whatever the process prints in the background.
    tail.push(session.item.output);
    session.process.output.listen((text) => tail.push(text));
    this.sessions.set(session.id, session);
    return this.sessions.size;
  }

  get(id: number): ExecSession | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  all(): ExecSession[] {
    return [...this.sessions.values()];
  }

  /** /stop: ends one session (as an interrupt does); false when no session has that id. */
  stop(id: number): boolean {
    const session = this.sessions.get(id);
    if (session === undefined) return false;
    session.process.terminate();
    session.item.complete({ status: 'failed', exitCode: session.process.output.exitCode });
    this.release(id);
    return true;
  }

  private prune(): void {
    const byRecency = this.all().sort((a, b) => b.lastUsedMs - a.lastUsedMs);
    const kept = new Set(byRecency.slice(0, PROTECTED_RECENT).map((s) => s.id));
    const oldestFirst = byRecency.reverse().filter((s) => !kept.has(s.id));
    const victim = oldestFirst.find((s) => s.process.output.exited) ?? oldestFirst[0];
    if (victim === undefined) return;
    victim.process.terminate();
    victim.item.complete({ status: 'failed', exitCode: victim.process.output.exitCode });
    this.release(victim.id);
  }

  /** The turn ended with these sessions running: their items in it complete; the processes go on. */
  endTurn(turnId: string): void {
    for (const session of this.sessions.values()) {
      if (session.item.turnId === turnId) session.item.complete({ status: 'completed', exitCode: null });
    }
  }

  /** Ends every session (an interrupt, the thread's shutdown): `status` is what their items report. */
  terminateAll(status: 'failed' | 'completed' = 'failed'): void {
    for (const session of this.sessions.values()) {
      session.process.terminate();
      session.item.complete({ status, exitCode: session.process.output.exitCode });
    }
    this.sessions.clear();
    this.reserved.clear();
  }
}
