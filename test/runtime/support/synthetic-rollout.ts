/**
 * A synthetic rollout on disk, written directly (no Session, no model): N turns, each a user
 * message, a shell call with its output, and an answer; every `imageEvery`-th message carries an
 * image whose data URL is `imageChars` long. Lines are the real format, so the reader, thread/list
 * and thread/resume treat it as a recorded thread. For tests and the bench (`npm run bench`).
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ThreadItem } from '../../../src/protocol/api.js';
import type { HistoryEntry } from '../../../src/runtime/core/history.js';
import { newId } from '../../../src/runtime/core/ids.js';
import {
  previewOf,
  ROLLOUT_VERSION,
  type RolloutHeader,
  type RolloutLine,
  type RolloutSettings,
} from '../../../src/runtime/rollout/format.js';
import { writeMeta } from '../../../src/runtime/rollout/meta.js';
import { rolloutPath } from '../../../src/runtime/rollout/paths.js';

export interface SyntheticRolloutOptions {
  home: string;
  turns: number;
  cwd?: string;
  /** Characters of each command's output (it is in the file twice: the model's copy and the display's). */
  toolOutputChars?: number;
  /** Characters of each user message and each answer. */
  messageChars?: number;
  /** Every this many turns, the user message has an image (0: never). */
  imageEvery?: number;
  imageChars?: number;
}

export interface SyntheticRollout {
  path: string;
  threadId: string;
  bytes: number;
  turnIds: string[];
  header: RolloutHeader;
  preview: string;
}

/** Text of exactly `length` characters, varied so it is not one repeated byte. */
function filler(length: number, seed: number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  let out = '';
  for (let i = seed; out.length < length; i++) out += `${words[i % words.length]}${i % 97} `;
  return out.slice(0, length);
}

/** Writes the rollout in large chunks; returns where it is and its size. */
export function writeSyntheticRollout(options: SyntheticRolloutOptions): SyntheticRollout {
  const threadId = newId();
  const createdAt = Date.now();
  const cwd = options.cwd ?? options.home;
  const path = rolloutPath(options.home, threadId, createdAt);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = openSync(path, 'w', 0o600);
  const toolChars = options.toolOutputChars ?? 4000;
  const messageChars = options.messageChars ?? 600;
  const imageEvery = options.imageEvery ?? 50;
  const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(Math.ceil((options.imageChars ?? 100_000) / 11))}`.slice(
    0,
    options.imageChars ?? 100_000,
  );
  const settings: RolloutSettings = {
    model: 'fake-model',
    effort: null,
    approvalPolicy: 'never',
    sandboxPolicy: { type: 'dangerFullAccess' },
    cwd,
  };
  const header: RolloutHeader = {
    type: 'header',
    version: ROLLOUT_VERSION,
    threadId,
    sessionId: threadId,
    cwd,
    model: 'fake-model',
    provider: 'fake',
    createdAt,
    cliVersion: 'synthetic',
    source: 'cli',
    forkedFromId: null,
  };
  let chunk: string[] = [];
  let chunkChars = 0;
  let bytes = 0;
  const write = (line: RolloutLine): void => {
    const text = `${JSON.stringify(line)}\n`;
    chunk.push(text);
    chunkChars += text.length;
    if (chunkChars > 4 << 20) drain();
  };
  const drain = (): void => {
    const data = chunk.join('');
    bytes += writeSync(fd, data);
    chunk = [];
    chunkChars = 0;
  };
  write(header);
  write({ type: 'context', items: [], files: [] });
  write({ type: 'settings', settings });
  const turnIds: string[] = [];
  let preview = '';
  const usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningOutputTokens: 0, totalTokens: 0 };
  for (let n = 0; n < options.turns; n++) {
    const turnId = newId();
    turnIds.push(turnId);
    const at = createdAt + n * 1000;
    const prompt = `question ${n}: ${filler(messageChars, n)}`;
    const withImage = imageEvery > 0 && n % imageEvery === 0;
    const userEntry: HistoryEntry = {
      type: 'userInput',
      content: [
        { type: 'text', text: prompt, text_elements: [] },
        ...(withImage ? [{ type: 'local_image' as const, path: `/tmp/shot-${n}.png` }] : []),
      ],
      converted: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: prompt },
            ...(withImage ? [{ type: 'input_image' as const, image_url: image, detail: 'high' as const }] : []),
          ],
        },
      ],
    };
    if (n === 0) preview = previewOf(userEntry) ?? '';
    const callId = `call_${n}`;
    const command = `cat notes-${n}.txt`;
    const output = filler(toolChars, n * 7);
    const answer = `answer ${n}: ${filler(messageChars, n * 3)}`;
    const items: ThreadItem[] = [
      {
        type: 'userMessage',
        id: newId(),
        content: [
          { type: 'text', text: prompt, text_elements: [] },
          ...(withImage ? [{ type: 'localImage' as const, path: `/tmp/shot-${n}.png` }] : []),
        ],
      },
      {
        type: 'commandExecution',
        id: callId,
        command,
        commandActions: [{ type: 'unknown', command }],
        cwd,
        status: 'completed',
        aggregatedOutput: output,
        exitCode: 0,
        durationMs: 12,
      },
      { type: 'agentMessage', id: newId(), text: answer },
    ];
    usage.inputTokens += 1000;
    usage.outputTokens += 100;
    usage.totalTokens += 1100;
    write({ type: 'turnStarted', turnId, at, kind: 'regular', settings });
    write({ type: 'history', turnId, entry: userEntry });
    write({ type: 'item', turnId, item: items[0]! });
    write({
      type: 'history',
      turnId,
      entry: { type: 'item', item: { type: 'function_call', call_id: callId, name: 'shell', arguments: JSON.stringify({ command }) } },
    });
    write({ type: 'history', turnId, entry: { type: 'item', item: { type: 'function_call_output', call_id: callId, output } } });
    write({ type: 'item', turnId, item: items[1]! });
    write({
      type: 'history',
      turnId,
      entry: { type: 'item', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] } },
    });
    write({ type: 'item', turnId, item: items[2]! });
    write({
      type: 'turnCompleted',
      turnId,
      at: at + 500,
      status: 'completed',
      error: null,
      durationMs: 500,
      usage: {
        total: { ...usage },
        last: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 100, reasoningOutputTokens: 0, totalTokens: 1100 },
      },
    });
  }
  drain();
  closeSync(fd);
  return { path, threadId, bytes, turnIds, header, preview };
}

/** The same, plus its meta file, so a listing reads only that. */
export async function writeSyntheticSession(options: SyntheticRolloutOptions): Promise<SyntheticRollout> {
  const written = writeSyntheticRollout(options);
  const { header, preview } = written;
  await writeMeta(written.path, {
    header,
    model: header.model,
    cwd: header.cwd,
    preview,
    turnCount: options.turns,
    updatedAt: header.createdAt + options.turns * 1000,
  });
  return written;
}
