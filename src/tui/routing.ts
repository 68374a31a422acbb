/**
 * From a composer submission to the app server (docs/codex-parity.md#from-a-submission-to-userinput,
 * #steer-or-start): the UserInput[] in Codex's order, the PendingSteer compare key, and steer-or-start
 * with the race fallbacks.
 */
import {
  JsonRpcError,
  type AppServerClient,
  type ApprovalPolicy,
  type ReasoningEffort,
  type SandboxPolicy,
  type TurnError,
  type TurnKind,
  type V2TextElement,
  type V2UserInput,
} from '../protocol/api.js';
import { skillMentionNames } from '../protocol/skill-mentions.js';
import { interruptMissOf, notSubmittedReasonOf } from '../protocol/turn-errors.js';
import type { TextElement } from '../protocol/user-input.js';
import type { Submission } from './composer/types.js';

export interface SkillRef {
  name: string;
  path: string;
}

export interface BuildInputsOptions {
  /** Skills the user can mention as `$name` (name → SKILL.md path). */
  skills?: readonly SkillRef[];
  /** Remote image URLs (from history); they come first and take labels 1..M. */
  remoteImageUrls?: string[];
}

export function toV2TextElement(el: TextElement): V2TextElement {
  return { byteRange: { start: el.byte_range.start, end: el.byte_range.end }, placeholder: el.placeholder ?? null };
}

/**
 * Items in Codex's exact order (docs/codex-parity.md#from-a-submission-to-userinput): remote images,
 * local attachments (in composer order), the text only when non-empty, then skills: mentions bound in
 * the composer, then `$name` typed as plain text that names a known skill (one item per path).
 */
export function buildUserInputs(submission: Submission, options: BuildInputsOptions = {}): V2UserInput[] {
  const items: V2UserInput[] = [];
  for (const url of options.remoteImageUrls ?? []) items.push({ type: 'image', url });
  for (const att of submission.attachments) {
    items.push(att.kind === 'audio' ? { type: 'localAudio', path: att.path } : { type: 'localImage', path: att.path });
  }
  if (submission.text !== '') {
    items.push({ type: 'text', text: submission.text, text_elements: submission.textElements.map(toV2TextElement) });
  }
  const seen = new Set<string>();
  const bound = (submission.mentions ?? []).map((m) => ({ name: m.name, path: m.path }));
  for (const skill of [...bound, ...mentionedSkills(submission.text, options.skills ?? [])]) {
    if (seen.has(skill.path)) continue;
    seen.add(skill.path);
    items.push({ type: 'skill', name: skill.name, path: skill.path });
  }
  return items;
}

/** The known skills the text mentions, read as the runtime reads them. */
function mentionedSkills(text: string, skills: readonly SkillRef[]): SkillRef[] {
  if (skills.length === 0) return [];
  const byName = new Map(skills.map((s) => [s.name, s]));
  return skillMentionNames(text).flatMap((name) => byName.get(name) ?? []);
}

/**
 * What a committed userMessage item is matched against (docs/codex-parity.md#pending-steer-rows): the text of all text items joined,
 * plus the number of media items.
 */
export function compareKey(items: readonly V2UserInput[]): string {
  let text = '';
  let media = 0;
  for (const item of items) {
    if (item.type === 'text') text += item.text;
    else if (item.type !== 'skill' && item.type !== 'mention') media += 1;
  }
  return JSON.stringify([text, media]);
}

export interface TurnSettings {
  cwd?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandboxPolicy?: SandboxPolicy | null;
  model?: string | null;
  kind?: TurnKind | 'regular' | null;
  /** Sent when present: `null` clears the thread's effort (as tillerClearEffort; undefined: not sent). */
  effort?: ReasoningEffort | null;
  /** The provider /model switched to (Tiller's `tillerModelProvider`); absent: the thread's. */
  provider?: string | null;
}

export interface SubmitTurnRequest {
  threadId: string;
  /** The cached active turn id; null when the thread is believed idle. */
  activeTurnId: string | null;
  items: V2UserInput[];
  /** The id the runtime keeps a steer by (`tillerClientId`), so it can be held, replaced or retracted. */
  clientId?: string | null;
  settings?: TurnSettings;
  /** Told whenever the server corrects the cached active turn id (null: no active turn). */
  onActiveTurnId?: (turnId: string | null) => void;
}

export type SubmitTurnResult =
  | { kind: 'steered'; turnId: string }
  | { kind: 'started'; turnId: string }
  | { kind: 'rejectedNotSteerable'; turnId: string; turnKind: TurnKind };

/** The actual turn id from an expected-id mismatch error, or null. */
export function mismatchActualTurnId(error: unknown): { expected: string; actual: string } | null {
  const reason = notSubmittedReasonOf(error);
  return reason?.type === 'expectedTurnMismatch' ? { expected: reason.expected, actual: reason.actual } : null;
}

/** The turn kind when the server refused a steer because the active turn is not steerable. */
export function notSteerableTurnKind(error: unknown): TurnKind | null {
  if (!(error instanceof JsonRpcError)) return null;
  const data = error.data as Partial<TurnError> | null | undefined;
  const info = data?.codexErrorInfo;
  if (typeof info !== 'object' || info === null || !('activeTurnNotSteerable' in info)) return null;
  return info.activeTurnNotSteerable.turnKind;
}

export function isNoActiveTurnToSteer(error: unknown): boolean {
  return notSubmittedReasonOf(error)?.type === 'noActiveTurn';
}

/**
 * Steer the cached active turn, else start one (docs/codex-parity.md#steer-or-start). A stale cache is repaired from the server's
 * answer: `no active turn to steer` → start; an expected-id mismatch → retry once with the actual
 * id. Other errors (and a second mismatch) are thrown.
 */
export async function submitUserTurn(client: AppServerClient, req: SubmitTurnRequest): Promise<SubmitTurnResult> {
  let expected = req.activeTurnId;
  let retried = false;
  const clientIdParam = req.clientId != null ? { tillerClientId: req.clientId } : {};
  while (expected !== null) {
    try {
      const res = await client.request('turn/steer', {
        threadId: req.threadId,
        input: req.items,
        expectedTurnId: expected,
        ...clientIdParam,
      });
      return { kind: 'steered', turnId: res.turnId };
    } catch (error) {
      const turnKind = notSteerableTurnKind(error);
      if (turnKind !== null) return { kind: 'rejectedNotSteerable', turnId: expected, turnKind };
      if (isNoActiveTurnToSteer(error)) {
        req.onActiveTurnId?.(null);
        expected = null;
        break;
      }
      const mismatch = mismatchActualTurnId(error);
      if (mismatch !== null) {
        req.onActiveTurnId?.(mismatch.actual);
        if (!retried && mismatch.actual !== expected) {
          retried = true;
          expected = mismatch.actual;
          continue;
        }
      }
      throw error;
    }
  }
  const settings = req.settings ?? {};
  const res = await client.request('turn/start', {
    threadId: req.threadId,
    input: req.items,
    ...clientIdParam,
    ...(settings.cwd != null ? { cwd: settings.cwd } : {}),
    ...(settings.approvalPolicy != null ? { approvalPolicy: settings.approvalPolicy } : {}),
    ...(settings.sandboxPolicy != null ? { sandboxPolicy: settings.sandboxPolicy } : {}),
    ...(settings.model != null ? { model: settings.model } : {}),
    ...(settings.effort === null ? { tillerClearEffort: true } : settings.effort !== undefined ? { effort: settings.effort } : {}),
    ...(settings.kind != null ? { kind: settings.kind } : {}),
    ...(settings.provider != null ? { tillerModelProvider: settings.provider } : {}),
  });
  req.onActiveTurnId?.(res.turn.id);
  return { kind: 'started', turnId: res.turn.id };
}

/** Interrupt a turn; the server's `no active turn to interrupt` (the turn just ended) is not an error. */
export async function interruptTurn(client: AppServerClient, threadId: string, turnId: string): Promise<void> {
  try {
    await client.request('turn/interrupt', { threadId, turnId });
  } catch (error) {
    if (interruptMissOf(error)?.type === 'noActiveTurn') return;
    throw error;
  }
}
