/**
 * /ps, /stop, /rename and /export: what the session has running or has said, through the app
 * server (`tiller/commandSessions/*`, `thread/name/set`) and the transcript's cells. Each answer is
 * one cell; a failure says what went wrong and changes nothing.
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { errorMessage } from '../../../error-message.js';
import type { TillerCommandSession } from '../../../protocol/api.js';
import { displayCommand } from '../../../protocol/shell-command-line.js';
import type { NewCell, TranscriptCell } from '../../store-types.js';
import type { CopyResult } from '../../terminal/clipboard-copy.js';
import { parseExportArgs, transcriptJson, transcriptMarkdown } from './transcript-export.js';

export const NO_BACKGROUND_COMMANDS = 'No background commands are running.';
export const STOP_USAGE = 'Usage: /stop [ID] (no ID: all of them; /ps lists them)';
export const RENAME_USAGE = 'Usage: /rename NAME';
export const NO_THREAD_TO_NAME = 'There is no session to name yet: send a message first.';
export const NOTHING_TO_EXPORT = 'There is nothing to export yet.';

export interface SessionCommandsHost {
  threadId(): string | null;
  cells(): readonly TranscriptCell[];
  cell(cell: NewCell): void;
  /** tiller/commandSessions/list. */
  commandSessions(threadId: string): Promise<TillerCommandSession[]>;
  /** tiller/commandSessions/stop; the ids ended. */
  stopCommandSessions(threadId: string, id: number | null): Promise<number[]>;
  /** thread/name/set. */
  renameThread(threadId: string, name: string): Promise<void>;
  cwd: string;
  copyToClipboard?: (text: string) => Promise<CopyResult>;
  /** Tests write elsewhere; default: the file, created (never overwritten) 0600. */
  writeExport?: (path: string, text: string) => Promise<void>;
}

/** `1h 02m`, `3m 05s`, `42s`. */
export function formatRunning(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
  return `${s}s`;
}

/** /ps: one entry a command, with its id (for /stop ID), how long it has run and its last line. */
export function commandSessionsText(sessions: readonly TillerCommandSession[]): string {
  if (sessions.length === 0) return NO_BACKGROUND_COMMANDS;
  const lines = [`Background commands (${sessions.length}):`];
  for (const s of sessions) {
    const state = s.exited ? `exited ${s.exitCode ?? '?'}` : `running ${formatRunning(s.runningMs)}`;
    // As the command's cell shows it: the script, without the `sh -lc` wrapper.
    lines.push(`  ${s.id}  ${displayCommand(s.command)}  (${state})`);
    lines.push(`      ↳ ${s.lastLine === '' ? '(no output yet)' : s.lastLine}`);
  }
  return lines.join('\n');
}

/** `/stop` → all (null), `/stop 123` → that one; anything else is not an id. */
export function parseStopArgs(args: string): { id: number | null } | { error: string } {
  const word = args.trim();
  if (word === '' || word === 'all') return { id: null };
  return /^\d{1,9}$/u.test(word) ? { id: Number(word) } : { error: STOP_USAGE };
}

export function stoppedText(stopped: readonly number[], asked: number | null): string {
  if (stopped.length === 0) return asked === null ? NO_BACKGROUND_COMMANDS : `No background command has id ${asked}. /ps lists them.`;
  const noun = stopped.length === 1 ? 'command' : 'commands';
  return `Stopped ${stopped.length} background ${noun} (${stopped.join(', ')}).`;
}

export function renamedText(name: string): string {
  return `Session named "${name}". Resume it with: tiller resume ${/\s/u.test(name) ? JSON.stringify(name) : name}`;
}

async function writeNew(path: string, text: string): Promise<void> {
  await writeFile(path, text, { flag: 'wx', mode: 0o600 });
}

export class SessionCommands {
  constructor(private readonly host: SessionCommandsHost) {}

  ps(): void {
    const threadId = this.host.threadId();
    if (threadId === null) return this.info(NO_BACKGROUND_COMMANDS);
    this.host.commandSessions(threadId).then(
      (sessions) => this.info(commandSessionsText(sessions)),
      (error: unknown) => this.error(`Could not list the background commands: ${errorMessage(error)}`),
    );
  }

  stop(args: string): void {
    const parsed = parseStopArgs(args);
    if ('error' in parsed) return this.error(parsed.error);
    const threadId = this.host.threadId();
    if (threadId === null) return this.info(stoppedText([], parsed.id));
    this.host.stopCommandSessions(threadId, parsed.id).then(
      (stopped) => this.info(stoppedText(stopped, parsed.id)),
      (error: unknown) => this.error(`Could not stop the background commands: ${errorMessage(error)}`),
    );
  }

  rename(args: string): void {
    const name = args.trim();
    if (name === '')
      return this.host.cell({ kind: 'info', text: RENAME_USAGE, hint: 'The name shows in /resume and works with tiller resume NAME.' });
    const threadId = this.host.threadId();
    if (threadId === null) return this.info(NO_THREAD_TO_NAME);
    this.host.renameThread(threadId, name).then(
      () => this.info(renamedText(name.replace(/\s+/gu, ' '))),
      (error: unknown) => this.error(`Could not name the session: ${errorMessage(error)}`),
    );
  }

  export(args: string): void {
    const request = parseExportArgs(args);
    if ('error' in request) return this.error(request.error);
    const cells = this.host.cells();
    if (!cells.some((c) => c.kind === 'user' || c.kind === 'agent')) return this.info(NOTHING_TO_EXPORT);
    const threadId = this.host.threadId();
    const text =
      request.format === 'json'
        ? transcriptJson(cells, { threadId })
        : transcriptMarkdown(cells, threadId === null ? 'Tiller session' : `Tiller session ${threadId}`);
    const what = request.format === 'json' ? 'the transcript as JSON' : 'the transcript';
    if (request.path === null) {
      const copy = this.host.copyToClipboard;
      if (copy === undefined) return this.error('Copying is not available here: give /export a file path.');
      copy(text).then(
        (r) =>
          'error' in r
            ? this.error(`Could not copy: ${r.error}`)
            : this.info(`Copied ${what} (${[...text].length} characters) to the clipboard via ${r.via}.`),
        (error: unknown) => this.error(`Could not copy: ${errorMessage(error)}`),
      );
      return;
    }
    const path = isAbsolute(request.path) ? request.path : resolve(this.host.cwd, request.path);
    (this.host.writeExport ?? writeNew)(path, text).then(
      () => this.info(`Exported ${what} to ${path}.`),
      (error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        this.error(
          code === 'EEXIST'
            ? `${path} already exists: /export does not overwrite; give another path.`
            : `Could not export: ${errorMessage(error)}`,
        );
      },
    );
  }

  private info(text: string): void {
    this.host.cell({ kind: 'info', text });
  }

  private error(text: string): void {
    this.host.cell({ kind: 'error', text });
  }
}
