/**
 * What `exec_command` and `write_stdin` answer the model, line for line as Codex does: a chunk id,
 * the wall time spent waiting, the exit code or the session id of a process still running, the
 * output's token estimate, then the output within the call's token budget.
 */
import { randomBytes } from 'node:crypto';
import { approxTokenCount, formattedTruncateText } from './truncate.js';

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;

export interface ExecResponse {
  wallTimeMs: number;
  /** Set when the process ended during this call. */
  exitCode: number | null;
  /** Set when the process still runs (write_stdin may continue it). */
  sessionId: number | null;
  output: string;
  maxOutputTokens: number | null;
}

/** Six hex digits, as Codex's chunk ids. */
export function newChunkId(): string {
  return randomBytes(3).toString('hex');
}

export function execResponseText(response: ExecResponse, chunkId: string = newChunkId()): string {
  const lines = [`Chunk ID: ${chunkId}`, `Wall time: ${(response.wallTimeMs / 1000).toFixed(4)} seconds`];
  if (response.exitCode !== null) lines.push(`Process exited with code ${response.exitCode}`);
  if (response.sessionId !== null) lines.push(`Process running with session ID ${response.sessionId}`);
  lines.push(`Original token count: ${approxTokenCount(response.output)}`);
  lines.push('Output:');
  lines.push(formattedTruncateText(response.output, response.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS));
  return lines.join('\n');
}
