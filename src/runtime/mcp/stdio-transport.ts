/**
 * The MCP stdio client transport, as the SDK's StdioClientTransport (its framing: ReadBuffer and
 * serializeMessage) but spawned as the leader of its own process group, tracked with the shell
 * tool's groups: closing it, or Tiller exiting, ends the server and whatever it started (an `npx`
 * wrapper's child, a language server), so nothing outlives Tiller. A terminal's Ctrl-C does not
 * reach it either. stderr is kept (the last 8 KiB) to say why a server that exited did so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killProcessGroup, trackProcessGroup } from '../commands/process-groups.js';

export interface StdioServerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

const STDERR_TAIL_BYTES = 8 * 1024;
/** One message may be this long (the SDK's default is 10 MB); a longer one ends the connection. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** After stdin closes, how long a server gets to exit on its own, then after SIGTERM. */
const EXIT_GRACE_MS = 300;
const TERM_GRACE_MS = 1000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly readBuffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private stderrTail = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private spawnError: string | null = null;
  /** Why Tiller ended the connection itself (a message too long to take). */
  private failure: string | null = null;
  private closed: Promise<void> | null = null;
  private closing = false;
  private untrack: () => void = () => undefined;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Why the process ended, one line (`exited with code 1: <last stderr line>`); null while it runs. */
  get exitReason(): string | null {
    if (this.spawnError !== null) return `could not start \`${this.params.command}\`: ${this.spawnError}`;
    if (this.failure !== null) return this.failure;
    if (this.exit === null) return null;
    const how = this.exit.signal !== null ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code ?? '?'}`;
    const last = lastLine(this.stderrTail);
    return last ? `${how}: ${last}` : how;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args, {
        cwd: this.params.cwd,
        env: this.params.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.child = child;
      if (child.pid !== undefined) this.untrack = trackProcessGroup(child.pid);
      let settled = false;
      child.on('error', (error) => {
        this.spawnError ??= error.message;
        if (!settled) {
          settled = true;
          reject(error);
        }
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        settled = true;
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.on('close', () => {
        // The leader is gone; whatever it started in its group goes with it.
        if (child.pid !== undefined) killProcessGroup(child.pid);
        this.untrack();
        this.exit ??= { code: child.exitCode, signal: child.signalCode };
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.readBuffer.append(chunk);
        } catch (error) {
          this.failure = `sent a message over ${MAX_MESSAGE_BYTES / (1024 * 1024)} MiB (connection closed)`;
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          void this.close();
          return;
        }
        this.processReadBuffer();
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
      });
      child.stderr?.on('error', () => undefined);
    });
  }

  private processReadBuffer(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        // A line that is not a JSON-RPC message (a server logging to stdout): skipped, as the SDK does.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closing || this.exit !== null) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends stdin, then SIGTERM to the group, then SIGKILL; resolves once the process is gone. */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.readBuffer.clear();
      return;
    }
    const pid = child.pid;
    const gone = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (!(await within(gone, EXIT_GRACE_MS))) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      if (!(await within(gone, TERM_GRACE_MS))) killProcessGroup(pid);
      await gone;
    }
    // Children it left behind in its group go too.
    killProcessGroup(pid);
    this.readBuffer.clear();
  }
}

function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const last = lines.at(-1) ?? '';
  return last.length > 300 ? `${last.slice(0, 300)}…` : last;
}
