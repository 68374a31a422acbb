/**
 * The contract between the core's sampling loop and a model transport.
 * Implementations: the `openai` SDK over HTTP SSE (real servers, the test server, the embedded
 * offline model served through an in-process fetch).
 */
import type { ResponseItem } from '../../protocol/response-items.js';
import type { CodexErrorInfo, ReasoningEffort } from '../../protocol/api.js';
import type { TextElement } from '../../protocol/user-input.js';

export interface FunctionToolSpec {
  type: 'function';
  name: string;
  description: string;
  strict: boolean;
  parameters: Record<string, unknown>;
}

/** A freeform tool (Codex's apply_patch): the model writes its input in the tool's Lark grammar. */
export interface CustomToolSpec {
  type: 'custom';
  name: string;
  description: string;
  format: { type: 'grammar'; syntax: 'lark'; definition: string };
}

/** The hosted web search: the server runs it, and its calls come back as `web_search_call` items. */
export interface WebSearchToolSpec {
  type: 'web_search';
  /** Codex's: true searches the live web (`web_search = "live"`), false only the server's cache (`cached`). */
  external_web_access?: boolean;
}

export type ToolSpec = FunctionToolSpec | CustomToolSpec | WebSearchToolSpec;

export type Verbosity = 'low' | 'medium' | 'high';

/** The Responses request body (docs/codex-parity.md#request-body). */
export interface ModelRequest {
  model: string;
  input: ResponseItem[];
  tools: ToolSpec[];
  tool_choice: 'auto';
  parallel_tool_calls: boolean;
  store: false;
  stream: true;
  /** `reasoning.encrypted_content` whenever reasoning is on: with `store: false` it is how a chain survives a tool call. */
  include: string[];
  prompt_cache_key: string;
  /** Absent for a model without reasoning (it refuses the field). */
  reasoning?: { effort?: ReasoningEffort; summary?: 'auto' };
  /**
   * `verbosity` where the model family takes it; `format` for a turn with an output schema (exec's
   * `--output-schema`, turn/start's `outputSchema`): the final message's JSON shape.
   */
  text?: { verbosity?: Verbosity; format?: { type: 'json_schema'; name: string; schema: unknown; strict: true } };
  /** Codex's mark of a sub-agent's request (`{"x-openai-subagent": "review"}`); the Responses wire also sends it as that header. */
  client_metadata?: Record<string, string>;
}

export interface TokenUsage {
  input_tokens: number;
  cached_input_tokens: number;
  /** Input tokens written to the prompt cache (`input_tokens_details.cache_write_tokens`). */
  cache_write_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  /** The response's `total_tokens` (input plus output when the server leaves it out). */
  total_tokens: number;
}

/** Stream events the core consumes (docs/codex-parity.md#stream-events); unknown SSE types never reach the core. */
export type ModelEvent =
  | { type: 'created'; responseId: string }
  | { type: 'output_item_added'; item: ResponseItem }
  | { type: 'output_text_delta'; itemId: string; delta: string }
  | { type: 'reasoning_delta'; itemId: string; delta: string }
  | { type: 'output_item_done'; item: ResponseItem }
  | { type: 'completed'; responseId: string; usage: TokenUsage | null; endTurn: boolean | null }
  /** Said to the user as a warning, never recorded: the model must not read Tiller's words as its own. */
  | { type: 'notice'; message: string };

/** Every failure of a sampling request is a ModelError; `retryable` drives the core's retry loop. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly info: CodexErrorInfo | null = null,
    /** Server-requested delay before retrying (Retry-After, "try again in Xs"); wins over backoff. */
    readonly retryAfterMs: number | null = null,
    readonly additionalDetails: string | null = null,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * What the core knows of a request beyond its body. A client to a server sends the body alone; the
 * embedded offline model reads these in process (model/wires/offline/client.ts).
 */
export interface ModelStreamOptions {
  /** The turn this sampling request belongs to: the offline model tells input steered into it from a new turn's prompt. */
  turnId?: string;
  /**
   * The text elements of the user inputs the model has not answered yet (the latest message and
   * input steered in since), which the Responses input cannot carry.
   */
  textElements?: InputTextElements[];
}

/** One user text input's elements, beside the text whose UTF-8 bytes they index. */
export interface InputTextElements {
  text: string;
  textElements: TextElement[];
}

export interface ModelClient {
  /** Human-readable provider label for the status line: `offline`, a host name, or `openai`. */
  readonly label: string;
  /** One sampling request. Throws ModelError; stops promptly when `signal` aborts. */
  stream(request: ModelRequest, signal: AbortSignal, options?: ModelStreamOptions): AsyncIterable<ModelEvent>;
  /** The provider's models (`GET /models`), as it lists them. Throws ModelError; absent: it cannot list. */
  listModels?(signal?: AbortSignal): Promise<ListedModel[]>;
}

/** `GET /models` answers a picker: it must not wait as long as a stream may stay silent. */
export const LIST_MODELS_TIMEOUT_MS = 15_000;

export interface ListedModel {
  id: string;
  /** The Models API's `owned_by`, when given. */
  ownedBy: string | null;
}
