/**
 * Tiller's control of input after Enter (README "Tiller's extensions to the app-server protocol"):
 * inputs sent with a `tillerClientId` can be held, released, replaced or retracted while they wait
 * in the running turn, and each one's `userMessage` completion says when the model got it.
 */
import type { V2UserInput } from './v2-user-input.js';

/** The longest `tillerClientId` accepted. */
export const CLIENT_ID_MAX_CHARS = 200;

export type PendingInputEditAction = 'hold' | 'release' | 'replace' | 'retract';

export interface TillerPendingInputEditParams {
  threadId: string;
  clientId: string;
  action: PendingInputEditAction;
  /** The new content: required for `replace`, refused with any other action. */
  input?: V2UserInput[] | null;
}

/**
 * What the edit found: the first four say it was done; `alreadyDelivered`: the input was taken for a
 * sampling request; `notPending`: no input with that id waits (never sent, or dropped by an interrupt
 * or at a turn's end).
 */
export type PendingInputEditStatus = 'held' | 'released' | 'replaced' | 'retracted' | 'alreadyDelivered' | 'notPending';

export interface TillerPendingInputEditResult {
  status: PendingInputEditStatus;
}

/** The tool call a delivered input followed. `other`: a call with no item (unknown tool, bad arguments); `id` is the model's call id. */
export type TillerDeliveryAfterItem =
  | { id: string; type: 'commandExecution'; command: string }
  | { id: string; type: 'mcpToolCall'; server: string; tool: string }
  | { id: string; type: 'other' };

/** On a `userMessage` `item/completed`: when the input was recorded for the model. */
export interface TillerDelivery {
  /** 1-based index of the turn's sampling request that first carries it (retries count once). */
  samplingRequest: number;
  /** The last tool call item completed in this turn before that request; null if none. */
  afterItem: TillerDeliveryAfterItem | null;
  deliveredAtMs: number;
}

/** Inputs a turn ended without delivering (held, or behind a held one), in order; dropped by the runtime. */
export interface TillerPendingInputsReturned {
  threadId: string;
  turnId: string;
  clientIds: string[];
}
