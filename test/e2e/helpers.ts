/** Shared setup for the end-to-end tests: the fake Responses server and the real bin in a pty. */
import { afterEach } from 'vitest';
import { isContextFragment } from '../../src/protocol/context-fragments.js';
import { splitWords } from '../../src/runtime/model/wires/responses/sse-events.js';
import { FakeResponsesServer, type Gate, type Hold, type RecordedRequest } from '../support/fake-responses-server.js';
import { startTiller, type StartOptions, type TillerPty } from '../support/pty.js';

/** Texts of the user messages in a recorded Responses request, in order, without Tiller's environment context. */
export function userTexts(request: RecordedRequest): string[] {
  const input: unknown[] = Array.isArray(request.body?.input) ? request.body.input : [];
  const out: string[] = [];
  for (const item of input as Array<Record<string, unknown>>) {
    if (item.type !== 'message' || item.role !== 'user' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Array<Record<string, unknown>>) {
      if (part.type === 'input_text' && typeof part.text === 'string' && !isContextFragment(part.text)) out.push(part.text);
    }
  }
  return out;
}

export function lastUserText(request: RecordedRequest): string | undefined {
  return userTexts(request).at(-1);
}

export interface Session {
  server: FakeResponsesServer;
  pty: TillerPty;
}

/** The bin against a fresh fake server; the composer is on screen when this resolves. */
async function startSession(options: StartOptions = {}): Promise<Session> {
  const server = await FakeResponsesServer.start();
  const pty = startTiller({
    ...options,
    env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy', ...options.env },
  });
  await pty.waitFor('Ask Tiller to do anything');
  return { server, pty };
}

async function stopSession(session: Session | null): Promise<void> {
  if (session === null) return;
  session.pty.kill();
  await session.server.close();
}

/** Registers an afterEach that stops the session a test opened with the returned function. */
export function sessionPerTest(): (options?: StartOptions) => Promise<Session> {
  let current: Session | null = null;
  afterEach(async () => {
    await stopSession(current);
    current = null;
  });
  return async (options = {}) => (current = await startSession(options));
}

/** A key's echo counts once output has paused this long (a frame is one write; 15 ms is waitFor's default). */
const ECHO_QUIET_MS = 8;
/** After the echo, before the next key: with the quiet, 12 ms, past the detector's 8 ms and a timer's 1 ms slack. */
const HUMAN_KEY_GAP_MS = 4;

/**
 * Types like a person: each character is written only after the previous one is on screen, so the bin
 * reads no two within the paste-burst detector's 8 ms (a busy event loop would otherwise read them
 * together and the Enter after them would insert a newline, as it must after a paste). The echo
 * comes after the bin read the key, so keys reach it at least ECHO_QUIET_MS + HUMAN_KEY_GAP_MS apart.
 */
export async function typeSlowly(pty: TillerPty, text: string): Promise<void> {
  for (const ch of text) {
    // Where the last whole frame left the cursor: one caught halfway through a spinner frame would
    // differ from the caret at once, and the next key would follow before this one is read.
    const before = await pty.frameCursor();
    pty.write(ch);
    // The real cursor sits at the caret, so it moves once the character is in the composer. It also
    // moves while a frame is half drawn: only a frame followed by a pause counts.
    await pty.waitFor(
      () => {
        const now = pty.cursor();
        return now.x !== before.x || now.y !== before.y;
      },
      undefined,
      { quietMs: ECHO_QUIET_MS },
    );
    await new Promise((resolve) => setTimeout(resolve, HUMAN_KEY_GAP_MS));
  }
}

/**
 * The composer rows: from the last prompt-glyph row down to the blank row above the footer (the
 * footer is the last non-empty row; popup rows, when open, are included).
 */
export function composerLines(screen: string): string[] {
  const lines = screen.split('\n');
  let footer = lines.length - 1;
  while (footer > 0 && lines[footer]!.trim() === '') footer--;
  let start = footer;
  while (start > 0 && !lines[start]!.startsWith('› ') && !lines[start]!.startsWith('! ')) start--;
  return lines.slice(start, Math.max(start + 1, footer - 1));
}

/** The composer's text as shown (prompt and indent removed; '' for the placeholder). */
export function composerText(screen: string): string {
  const rows = composerLines(screen);
  if (rows.length === 1 && rows[0] === '› Ask Tiller to do anything') return '';
  return rows.map((row, i) => (i === 0 ? row.replace(/^› /, '') : row.replace(/^ {2}/, ''))).join('\n');
}

/**
 * Stops for a scripted `text`: one gate after each prefix (in order), released one by one to
 * stream the answer in steps, e.g. a resize while each step arrives.
 */
export function holdsAfter(server: FakeResponsesServer, prefixes: string[]): { gates: Gate[]; hold: Hold[] } {
  const gates = prefixes.map(() => server.gate());
  // The server streams a text word by word (splitWords), so a prefix's word count is where it ends.
  return { gates, hold: prefixes.map((prefix, i) => ({ gate: gates[i]!, afterDeltas: splitWords(prefix).length })) };
}

/** Waits for `count` requests; a timeout shows the screen, which usually says why. */
export async function waitForRequests(session: Session, count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
  try {
    return await session.server.waitForRequests(count, timeoutMs);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; screen:\n${session.pty.screen()}`);
  }
}
