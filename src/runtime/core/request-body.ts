/**
 * The Responses request body a sampling request sends, shaped as Codex 0.171 shapes it for the
 * model's family (docs/codex-parity.md#request-body): reasoning with a summary and its encrypted
 * content kept (with `store: false` the chain is otherwise lost at every tool call), verbosity
 * where the family takes it, and parallel tool calls.
 */
import type { ResponseItem } from '../../protocol/response-items.js';
import type { ReasoningEffort } from '../../protocol/settings.js';
import type { ModelRequest, ToolSpec } from '../model/types.js';
import { modelFamily } from '../tools/model-family.js';

export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

export interface RequestParts {
  model: string;
  input: ResponseItem[];
  tools: ToolSpec[];
  threadId: string;
  /** The effort config or /model chose; null: the family's default. */
  effort: ReasoningEffort | null;
  outputSchema: unknown | null;
  /** A sub-agent's request (the review turn's), marked as Codex marks it, with Codex's low verbosity. */
  subagent?: 'review';
}

/** Codex's key for the sub-agent a request is for, in `client_metadata` and as a header. */
export const SUBAGENT_KEY = 'x-openai-subagent';

export function modelRequestBody(parts: RequestParts): ModelRequest {
  const family = modelFamily(parts.model);
  const effort = parts.effort ?? family.defaultEffort;
  // A model outside the known families gets `reasoning` only when an effort was asked for.
  const reasoning = family.reasoning
    ? { ...(effort !== null ? { effort } : {}), summary: 'auto' as const }
    : effort !== null
      ? { effort }
      : null;
  const text = {
    ...(parts.subagent === 'review' ? { verbosity: 'low' as const } : family.verbosity !== null ? { verbosity: family.verbosity } : {}),
    // Codex's name and strictness for the schema (docs/codex-parity.md#request-body).
    ...(parts.outputSchema !== null
      ? { format: { type: 'json_schema' as const, name: 'codex_output_schema', schema: parts.outputSchema, strict: true as const } }
      : {}),
  };
  return {
    model: parts.model,
    input: parts.input,
    tools: parts.tools,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    store: false,
    stream: true,
    include: reasoning !== null ? [ENCRYPTED_REASONING] : [],
    prompt_cache_key: parts.threadId,
    ...(reasoning !== null ? { reasoning } : {}),
    ...(Object.keys(text).length > 0 ? { text } : {}),
    ...(parts.subagent !== undefined ? { client_metadata: { [SUBAGENT_KEY]: parts.subagent } } : {}),
  };
}
