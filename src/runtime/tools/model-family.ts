/**
 * Codex's model-family idea: what a model is given, and how a request to it is shaped, depends on
 * what it was trained with. One table decides it (docs/codex-parity.md#model-families); the
 * registry asks it which tools to offer, and the request builder which fields to send.
 */
import type { ReasoningEffort } from '../../protocol/settings.js';
import type { Verbosity } from '../model/types.js';

export interface ModelFamily {
  readonly id: 'gpt-5-codex' | 'gpt-5' | 'claude' | 'other';
  /** apply_patch as Codex's freeform grammar tool, or as a JSON function for models that take no custom tools. */
  readonly applyPatch: 'freeform' | 'function';
  /** Takes `reasoning` (with a summary) and returns encrypted reasoning items. */
  readonly reasoning: boolean;
  /** The effort sent when config and /model name none (Codex's default for the family). */
  readonly defaultEffort: ReasoningEffort | null;
  /** `text.verbosity`, for the families that take it. */
  readonly verbosity: Verbosity | null;
}

const GPT5_CODEX: ModelFamily = {
  id: 'gpt-5-codex',
  applyPatch: 'freeform',
  reasoning: true,
  defaultEffort: 'medium',
  verbosity: null,
};
const GPT5: ModelFamily = { ...GPT5_CODEX, id: 'gpt-5', verbosity: 'low' };
/**
 * Claude models with extended thinking (3.7 and the 4 generation on): thinking on by default, its
 * budget from the effort (wires/anthropic/request.ts, low = 4096 tokens, quick enough for a first
 * delta), and apply_patch as a function, since the Messages API has no freeform tools.
 */
const CLAUDE: ModelFamily = {
  id: 'claude',
  applyPatch: 'function',
  reasoning: true,
  defaultEffort: 'low',
  verbosity: null,
};
/** Any other model: the JSON form of every tool, and no field it might refuse. */
export const OTHER_FAMILY: ModelFamily = {
  id: 'other',
  applyPatch: 'function',
  reasoning: false,
  defaultEffort: null,
  verbosity: null,
};

const FAMILIES: ReadonlyArray<{ pattern: RegExp; family: ModelFamily }> = [
  // Codex-tuned models refuse `text.verbosity`.
  { pattern: /^(gpt-5(\.\d+)?-codex|codex-)/i, family: GPT5_CODEX },
  { pattern: /^gpt-5/i, family: GPT5 },
  // claude-3-7-sonnet, claude-sonnet-4-5, claude-opus-4-1, claude-haiku-4-5, claude-4-…; Claude 3.5 and 3 cannot think.
  { pattern: /^claude-(3-7-|(opus|sonnet|haiku)-[4-9]|[4-9])/i, family: CLAUDE },
];

export function modelFamily(model: string): ModelFamily {
  return FAMILIES.find((entry) => entry.pattern.test(model))?.family ?? OTHER_FAMILY;
}
