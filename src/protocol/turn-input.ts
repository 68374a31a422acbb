/**
 * How input reaches the core (docs/codex-parity.md#turn-input-modes, Codex protocol turn_input.rs): what the input is
 * (TurnInput), how it should be routed (TurnInputMode), and what happened (TurnInputSubmission).
 * Discriminated unions tagged by `type`; fields are camelCase like the rest of the TS runtime.
 */
import type { ReviewTarget } from './client-requests.js';
import type { ApprovalPolicy, ReasoningEffort, SandboxPolicy } from './api.js';
import type { ResponseItem } from './response-items.js';
import type { UserInput } from './user-input.js';

/** A message from another agent (sub-agent / mailbox delivery), recorded as model-visible input. */
export interface InterAgentCommunication {
  author: string;
  recipient: string;
  content: string;
}

export type TurnInput =
  | { type: 'userInput'; content: UserInput[]; clientId?: string | null }
  | { type: 'developerInput'; content: string[] }
  | { type: 'responseItem'; item: ResponseItem }
  | { type: 'interAgentCommunication'; communication: InterAgentCommunication };

/** Turn kinds that cannot be steered (as thread.ts TurnKind). */
export type NonSteerableTurnKind = 'review' | 'compact';

/** Options that only matter when the input starts a new turn. */
export interface TurnStartOptions {
  finalOutputJsonSchema?: unknown;
  parentTurnId?: string | null;
  rootTurnId?: string | null;
  /** Start a non-steerable turn of this kind instead of a regular one. */
  kind?: NonSteerableTurnKind | 'regular';
  /** What a `review` turn reviews. */
  review?: ReviewTarget;
}

/** Turn settings carried with the input; applied for Started and Steered, never for NotSubmitted. */
export interface ThreadSettingsOverrides {
  cwd?: string | null;
  model?: string | null;
  approvalPolicy?: ApprovalPolicy | null;
  sandboxPolicy?: SandboxPolicy | null;
  /** Unlike the others, `null` clears it (no reasoning effort is sent); undefined keeps it. */
  effort?: ReasoningEffort | null;
}

export interface AdditionalContextEntry {
  /** Developer-visible text merged into the turn whether it starts or is steered. */
  text: string;
}

export interface TurnInputRequest {
  input: TurnInput;
  threadSettings: ThreadSettingsOverrides;
  start: TurnStartOptions;
  additionalContext: Record<string, AdditionalContextEntry>;
  responsesapiClientMetadata: Record<string, string> | null;
}

export type TurnInputMode = { type: 'startOrSteer' } | { type: 'startIfIdle' } | { type: 'steer'; expectedTurnId: string };

/** Why input was not submitted: exactly Codex's NotSubmittedReason variants (docs/codex-parity.md#not-submitted-reasons). */
export type NotSubmittedReason =
  | { type: 'notIdle' }
  | { type: 'pendingTriggerTurn' }
  | { type: 'planMode' }
  | { type: 'noActiveTurn' }
  | { type: 'expectedTurnMismatch'; expected: string; actual: string }
  | { type: 'activeTurnNotSteerable'; turnKind: NonSteerableTurnKind }
  | { type: 'activeTurnOutputSchemaMismatch' }
  | { type: 'emptyInput' };

export type NotSubmittedReasonType = NotSubmittedReason['type'];

export type TurnInputSubmission =
  | { type: 'started'; turnId: string }
  | { type: 'steered'; turnId: string }
  | { type: 'notSubmitted'; reason: NotSubmittedReason };

/** What start-if-idle can return: it never steers. */
export type StartIfIdleSubmission = Extract<TurnInputSubmission, { type: 'started' | 'notSubmitted' }>;

/** What a plain steer can return: it never starts a turn. */
export type SteerSubmission = Extract<TurnInputSubmission, { type: 'steered' | 'notSubmitted' }>;

// ---- constructors ---------------------------------------------------------------------------

export function userTurnInput(content: UserInput[], clientId: string | null = null): TurnInput {
  return { type: 'userInput', content, clientId };
}

export function turnInputRequest(input: TurnInput, overrides: Partial<Omit<TurnInputRequest, 'input'>> = {}): TurnInputRequest {
  return {
    input,
    threadSettings: overrides.threadSettings ?? {},
    start: overrides.start ?? {},
    additionalContext: overrides.additionalContext ?? {},
    responsesapiClientMetadata: overrides.responsesapiClientMetadata ?? null,
  };
}

/** The common case (`TurnInputRequest::user_input`): user content, default settings. */
export function userInputRequest(content: UserInput[]): TurnInputRequest {
  return turnInputRequest(userTurnInput(content));
}

export const StartOrSteer: TurnInputMode = { type: 'startOrSteer' };
export const StartIfIdle: TurnInputMode = { type: 'startIfIdle' };
export function steerMode(expectedTurnId: string): TurnInputMode {
  return { type: 'steer', expectedTurnId };
}

export function started(turnId: string): { type: 'started'; turnId: string } {
  return { type: 'started', turnId };
}
export function steered(turnId: string): { type: 'steered'; turnId: string } {
  return { type: 'steered', turnId };
}
export function notSubmitted(reason: NotSubmittedReason): { type: 'notSubmitted'; reason: NotSubmittedReason } {
  return { type: 'notSubmitted', reason };
}

/** A readable line for logs and errors (no input text). Matches Codex's steer error wording. */
export function describeNotSubmittedReason(reason: NotSubmittedReason): string {
  switch (reason.type) {
    case 'notIdle':
      return 'a turn is already active';
    case 'pendingTriggerTurn':
      return 'a higher-priority trigger turn is pending';
    case 'planMode':
      return 'automatic input cannot start a turn in plan mode';
    case 'noActiveTurn':
      return 'no active turn to steer';
    case 'expectedTurnMismatch':
      return `expected active turn id \`${reason.expected}\` but found \`${reason.actual}\``;
    case 'activeTurnNotSteerable':
      return `cannot steer a ${reason.turnKind} turn`;
    case 'activeTurnOutputSchemaMismatch':
      return 'the active turn uses a different output schema';
    case 'emptyInput':
      return 'input must not be empty';
  }
}
