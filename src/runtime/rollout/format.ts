/**
 * The rollout file: one JSON object a line, append-only. The first line is the header; every later
 * line is one thing that happened to the thread, in order. Times are Unix milliseconds.
 *
 * History lines hold the entries exactly as the Session keeps them (user inputs with their typed
 * content and the converted items, image data URLs included), so a resumed thread sends the same
 * bytes again. Item lines are the display copy of each completed ThreadItem, for the transcript.
 */
import type {
  ApprovalPolicy,
  ReasoningEffort,
  SandboxPolicy,
  Thread,
  ThreadItem,
  TillerInstructionFile,
  TillerTurnCheckpoint,
  TokenUsageBreakdown,
  TurnError,
  TurnStatus,
} from '../../protocol/api.js';
import { redactSecrets } from '../../protocol/redact.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { HistoryEntry } from '../core/history.js';

/** The format this Tiller writes and the newest it reads. */
export const ROLLOUT_VERSION = 1;

export type ThreadSource = Thread['source'];

export interface RolloutHeader {
  type: 'header';
  version: number;
  threadId: string;
  /** Threads forked from one another share it: the first thread's id. */
  sessionId: string;
  cwd: string;
  model: string;
  provider: string;
  createdAt: number;
  cliVersion: string;
  source: ThreadSource;
  forkedFromId: string | null;
}

/** The settings a turn runs with, as the Session keeps them. */
export interface RolloutSettings {
  model: string;
  effort: ReasoningEffort | null;
  approvalPolicy: ApprovalPolicy;
  sandboxPolicy: SandboxPolicy;
  cwd: string;
}

export interface TokenUsageRecord {
  total: TokenUsageBreakdown;
  last: TokenUsageBreakdown;
}

/** A history entry with the turn it belongs to: the turn that recorded it, or the latest one started before it (null before the first). */
export interface TaggedEntry {
  turnId: string | null;
  entry: HistoryEntry;
}

export type RolloutLine =
  | RolloutHeader
  /** What is sent before the history in every request (the AGENTS.md message), and the files it came from. */
  | { type: 'context'; items: ResponseItem[]; files: TillerInstructionFile[] }
  | { type: 'settings'; settings: RolloutSettings }
  | ({ type: 'history' } & TaggedEntry)
  /** The whole history replaced: by a compaction (`turnId`: that turn), or by a revert past one (null). */
  | { type: 'replaceHistory'; turnId: string | null; history: TaggedEntry[] }
  | { type: 'turnStarted'; turnId: string; at: number; kind: 'regular' | 'compact' | 'review'; settings: RolloutSettings }
  | { type: 'item'; turnId: string; item: ThreadItem }
  | {
      type: 'turnCompleted';
      turnId: string;
      at: number;
      status: Exclude<TurnStatus, 'inProgress'>;
      error: TurnError | null;
      durationMs: number | null;
      usage: TokenUsageRecord | null;
    }
  /** `beforeTurnId` and every later turn were dropped (thread/revert). */
  | { type: 'revert'; beforeTurnId: string; at: number }
  /** The workspace before (and, later, after) a turn, in the checkpoint store (runtime/checkpoints); the latest line of a turn wins. */
  | { type: 'checkpoint'; checkpoint: TillerTurnCheckpoint };

/**
 * JSON as written to disk: secrets (the API key a user pasted, a token in a command's output) are
 * redacted in every string first, as in every other file Tiller writes, so the JSON stays whole.
 */
export function redactedJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'string' ? redactSecrets(field) : field));
}

/** Lines that make a thread worth a file; a thread with only its header and settings leaves none. */
export function isMaterial(line: RolloutLine): boolean {
  return line.type !== 'header' && line.type !== 'context' && line.type !== 'settings';
}

/** The display copy keeps this much of a command's output (half from the start, half from the end). */
export const DISPLAY_OUTPUT_MAX_CHARS = 64 * 1024;

function capDisplayText(text: string, max = DISPLAY_OUTPUT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters not kept …]\n${text.slice(text.length - half)}`;
}

/** The display copy of an item: huge command or tool output cut (the model's history line keeps it whole). */
export function displayCopy(item: ThreadItem): ThreadItem {
  if (item.type === 'commandExecution' && item.aggregatedOutput !== null && item.aggregatedOutput.length > DISPLAY_OUTPUT_MAX_CHARS) {
    return { ...item, aggregatedOutput: capDisplayText(item.aggregatedOutput) };
  }
  if (item.type === 'mcpToolCall' && item.result !== null) {
    const content = item.result.content.map((block) => {
      if (typeof block !== 'object' || block === null) return block;
      const text = (block as { text?: unknown }).text;
      return typeof text === 'string' && text.length > DISPLAY_OUTPUT_MAX_CHARS ? { ...block, text: capDisplayText(text) } : block;
    });
    return { ...item, result: { ...item.result, content } };
  }
  return item;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown): value is HistoryEntry {
  if (!isObject(value)) return false;
  if (value.type === 'userInput') return Array.isArray(value.content) && Array.isArray(value.converted);
  return value.type === 'item' && isObject(value.item) && typeof value.item.type === 'string';
}

function isTagged(value: unknown): value is TaggedEntry {
  return isObject(value) && (value.turnId === null || typeof value.turnId === 'string') && isEntry(value.entry);
}

const isSettings = (value: unknown): value is RolloutSettings =>
  isObject(value) &&
  typeof value.model === 'string' &&
  typeof value.cwd === 'string' &&
  typeof value.approvalPolicy === 'string' &&
  isObject(value.sandboxPolicy);

/**
 * The line's record when its shape is one this Tiller knows, else why not. Checks only what the
 * reader relies on: a deep check of every item would cost more than the rest of a resume.
 */
export function checkLine(value: unknown): { ok: true; line: RolloutLine } | { ok: false; problem: string } {
  if (!isObject(value) || typeof value.type !== 'string') return { ok: false, problem: 'not a rollout record' };
  const bad = { ok: false as const, problem: `a malformed ${value.type} record` };
  const line = value as RolloutLine;
  switch (line.type) {
    case 'header':
      return typeof line.version === 'number' && typeof line.threadId === 'string' ? { ok: true, line } : bad;
    case 'context':
      return Array.isArray(line.items) && Array.isArray(line.files) ? { ok: true, line } : bad;
    case 'settings':
      return isSettings(line.settings) ? { ok: true, line } : bad;
    case 'history':
      return isTagged(line) ? { ok: true, line } : bad;
    case 'replaceHistory':
      return Array.isArray(line.history) && line.history.every(isTagged) ? { ok: true, line } : bad;
    case 'turnStarted':
      return typeof line.turnId === 'string' && typeof line.at === 'number' && isSettings(line.settings) ? { ok: true, line } : bad;
    case 'item':
      return typeof line.turnId === 'string' &&
        isObject(line.item) &&
        typeof line.item.type === 'string' &&
        typeof line.item.id === 'string'
        ? { ok: true, line }
        : bad;
    case 'turnCompleted':
      return typeof line.turnId === 'string' && typeof line.status === 'string' ? { ok: true, line } : bad;
    case 'revert':
      return typeof line.beforeTurnId === 'string' ? { ok: true, line } : bad;
    case 'checkpoint':
      return isObject(line.checkpoint) && typeof line.checkpoint.turnId === 'string' && typeof line.checkpoint.workspace === 'string'
        ? { ok: true, line }
        : bad;
    default:
      return { ok: false, problem: `an unknown record type '${String((value as { type: unknown }).type)}'` };
  }
}

/** The first user message as a preview: its text, cut; a message with no text is named by what it holds. */
const PREVIEW_MAX_CHARS = 400;

export function previewOf(entry: HistoryEntry): string | null {
  if (entry.type !== 'userInput') return null;
  const text = entry.content
    .map((input) => (input.type === 'text' ? input.text : ''))
    .join(' ')
    .replace(/\s+/gu, ' ')
    .trim();
  if (text.length > 0) return text.length > PREVIEW_MAX_CHARS ? `${text.slice(0, PREVIEW_MAX_CHARS - 1)}…` : text;
  if (entry.content.some((input) => input.type === 'image' || input.type === 'image_file' || input.type === 'local_image'))
    return '[image]';
  return '[message]';
}
