/**
 * `tiller exec --json` events (docs/codex-parity.md#exec-json-events): app-server notifications in, Codex exec JSONL
 * events out. Item ids are exec-local (`item_0`, `item_1`, …); agent messages and reasoning appear
 * only as item.completed; user messages, deltas and hook rows are filtered out. The user messages'
 * delivery receipts go on the turn's end as Tiller's `tiller_inputs_delivered` (a field, not an event:
 * Codex SDK consumers see Codex's events only).
 */
import type {
  ServerNotification,
  ThreadItem,
  TillerDelivery,
  TokenUsageBreakdown,
  TurnError,
  WebSearchAction,
} from '../../protocol/api.js';
import { redactSecrets } from '../../protocol/redact.js';
import type { TokenUsage } from '../model/types.js';

export type ExecItem =
  | { id: string; type: 'agent_message'; text: string }
  | { id: string; type: 'reasoning'; text: string }
  | {
      id: string;
      type: 'command_execution';
      command: string;
      aggregated_output: string;
      exit_code: number | null;
      status: 'in_progress' | 'completed' | 'failed' | 'declined';
    }
  | {
      /** Codex exec's McpToolCallItem. */
      id: string;
      type: 'mcp_tool_call';
      server: string;
      tool: string;
      arguments: unknown;
      result: { content: unknown[]; structured_content: unknown | null } | null;
      error: { message: string } | null;
      status: 'in_progress' | 'completed' | 'failed';
    }
  /** Codex exec's WebSearchItem: the action in the Responses API's snake_case form. */
  | { id: string; type: 'web_search'; query: string; action: ExecWebSearchAction }
  /** Codex exec's TodoListItem: the model's plan (update_plan), started on its first update, completed at turn end. */
  | { id: string; type: 'todo_list'; items: { text: string; completed: boolean }[] }
  | {
      /** Codex exec's FileChangeItem: absolute paths; a declined patch is `failed` on this wire, as Codex folds it. */
      id: string;
      type: 'file_change';
      changes: Array<{ path: string; kind: 'add' | 'delete' | 'update' }>;
      status: 'in_progress' | 'completed' | 'failed';
    }
  | { id: string; type: 'error'; message: string };

export type ExecWebSearchAction =
  | { type: 'search'; query?: string; queries?: string[] }
  | { type: 'open_page'; url?: string }
  | { type: 'find_in_page'; url?: string; pattern?: string }
  | { type: 'other' };

/** Codex's models::WebSearchAction serialization: absent fields left out. */
export function execWebSearchAction(action: WebSearchAction | null): ExecWebSearchAction {
  const opt = <K extends string>(key: K, value: string | null): Partial<Record<K, string>> =>
    value === null ? {} : ({ [key]: value } as Record<K, string>);
  switch (action?.type) {
    case 'search':
      return { type: 'search', ...opt('query', action.query), ...(action.queries === null ? {} : { queries: action.queries }) };
    case 'openPage':
      return { type: 'open_page', ...opt('url', action.url) };
    case 'findInPage':
      return { type: 'find_in_page', ...opt('url', action.url), ...opt('pattern', action.pattern) };
    default:
      return { type: 'other' };
  }
}

/** The tool call an input followed: `id` is the exec item id (the model's call id for `other`). */
export type ExecAfterItem =
  | { id: string; type: 'command_execution'; command: string }
  | { id: string; type: 'mcp_tool_call'; server: string; tool: string }
  | { id: string; type: 'other' };

/** One input the turn recorded for a sampling request. */
export interface ExecInputDelivered {
  sampling_request: number;
  after_item: ExecAfterItem | null;
  delivered_at_ms: number;
}

/** Codex exec reports usage in the Responses API's own shape (without its `total_tokens`). */
export type ExecUsage = Omit<TokenUsage, 'total_tokens'>;

export type ExecEvent =
  | { type: 'thread.started'; thread_id: string }
  | { type: 'turn.started' }
  | { type: 'item.started'; item: ExecItem }
  | { type: 'item.updated'; item: ExecItem }
  | { type: 'item.completed'; item: ExecItem }
  | { type: 'turn.completed'; usage: ExecUsage; tiller_inputs_delivered?: ExecInputDelivered[] }
  | { type: 'turn.failed'; error: { message: string }; tiller_inputs_delivered?: ExecInputDelivered[] }
  | { type: 'error'; message: string };

/** Redacted: exec's output is often logged by CI. */
export function errorText(error: TurnError): string {
  return redactSecrets(error.additionalDetails ? `${error.message} (${error.additionalDetails})` : error.message);
}

/** The todo_list's key among the open items (no server item stands behind it). */
const TODO_LIST_KEY = '\0todo_list';

const STATUS = { inProgress: 'in_progress', completed: 'completed', failed: 'failed', declined: 'declined' } as const;

export class ExecJsonMapper {
  private counter = 0;
  private readonly ids = new Map<string, string>();
  /** Started items not yet completed, reconciled into item.completed at turn end. */
  private readonly open = new Map<string, ExecItem>();
  private usage: TokenUsageBreakdown | null = null;
  /** The exec id of this turn's todo_list, once the model has made a plan. */
  private todoListId: string | null = null;
  private lastError: string | null = null;
  /** The receipts of the turn so far. */
  private deliveries: ExecInputDelivered[] = [];
  /** The final answer: the last agent message. */
  lastAgentMessage: string | null = null;

  private localId(serverId: string): string {
    let id = this.ids.get(serverId);
    if (id === undefined) {
      id = `item_${this.counter++}`;
      this.ids.set(serverId, id);
    }
    return id;
  }

  private toExecItem(item: ThreadItem): ExecItem | null {
    switch (item.type) {
      case 'agentMessage':
        return { id: this.localId(item.id), type: 'agent_message', text: item.text };
      case 'reasoning': {
        const text = item.summary.join('\n');
        return text.trim().length === 0 ? null : { id: this.localId(item.id), type: 'reasoning', text };
      }
      case 'commandExecution':
        return {
          id: this.localId(item.id),
          type: 'command_execution',
          command: item.command,
          aggregated_output: item.aggregatedOutput ?? '',
          exit_code: item.exitCode,
          status: STATUS[item.status],
        };
      case 'mcpToolCall':
        return {
          id: this.localId(item.id),
          type: 'mcp_tool_call',
          server: item.server,
          tool: item.tool,
          arguments: item.arguments,
          result: item.result === null ? null : { content: item.result.content, structured_content: item.result.structuredContent },
          error: item.error,
          status: STATUS[item.status],
        };
      case 'webSearch':
        return { id: this.localId(item.id), type: 'web_search', query: item.query, action: execWebSearchAction(item.action) };
      case 'fileChange':
        return {
          id: this.localId(item.id),
          type: 'file_change',
          changes: item.changes.map((change) => ({ path: change.path, kind: change.kind.type })),
          status: item.status === 'inProgress' ? 'in_progress' : item.status === 'completed' ? 'completed' : 'failed',
        };
      default:
        return null;
    }
  }

  /** The turn's plan: one todo_list item, started by the first update, updated by the later ones. */
  private planUpdated(plan: readonly { step: string; status: string }[]): ExecEvent {
    const started = this.todoListId !== null;
    this.todoListId ??= `item_${this.counter++}`;
    const item: ExecItem = {
      id: this.todoListId,
      type: 'todo_list',
      items: plan.map((s) => ({ text: s.step, completed: s.status === 'completed' })),
    };
    this.open.set(TODO_LIST_KEY, item);
    return { type: started ? 'item.updated' : 'item.started', item };
  }

  private delivered(receipt: TillerDelivery): ExecInputDelivered {
    const after = receipt.afterItem;
    const afterItem: ExecAfterItem | null =
      after === null
        ? null
        : after.type === 'commandExecution'
          ? { id: this.localId(after.id), type: 'command_execution', command: after.command }
          : after.type === 'mcpToolCall'
            ? { id: this.localId(after.id), type: 'mcp_tool_call', server: after.server, tool: after.tool }
            : { id: after.id, type: 'other' };
    return { sampling_request: receipt.samplingRequest, after_item: afterItem, delivered_at_ms: receipt.deliveredAtMs };
  }

  /** A config warning or a runtime `warning` (e.g. an unreadable image): an `error` item, as Codex reports config warnings. */
  warning(message: string): ExecEvent {
    return { type: 'item.completed', item: { id: `item_${this.counter++}`, type: 'error', message } };
  }

  map(notification: ServerNotification): ExecEvent[] {
    switch (notification.method) {
      case 'thread/started':
        return [{ type: 'thread.started', thread_id: notification.params.thread.id }];
      case 'turn/started':
        this.deliveries = [];
        this.todoListId = null;
        return [{ type: 'turn.started' }];
      case 'turn/plan/updated':
        return [this.planUpdated(notification.params.plan)];
      case 'item/started': {
        const item = notification.params.item;
        if (item.type !== 'commandExecution' && item.type !== 'mcpToolCall' && item.type !== 'webSearch' && item.type !== 'fileChange')
          return [];
        const mapped = this.toExecItem(item);
        if (!mapped) return [];
        this.open.set(item.id, mapped);
        return [{ type: 'item.started', item: mapped }];
      }
      case 'item/completed': {
        const item = notification.params.item;
        this.open.delete(item.id);
        if (item.type === 'agentMessage') this.lastAgentMessage = item.text;
        if (item.type === 'userMessage' && notification.params.tillerDelivery)
          this.deliveries.push(this.delivered(notification.params.tillerDelivery));
        const mapped = this.toExecItem(item);
        return mapped ? [{ type: 'item.completed', item: mapped }] : [];
      }
      case 'error': {
        const message = errorText(notification.params.error);
        this.lastError = message;
        return [{ type: 'error', message }];
      }
      case 'warning':
        return [this.warning(notification.params.message)];
      case 'thread/tokenUsage/updated':
        this.usage = notification.params.tokenUsage.total;
        return [];
      case 'turn/completed': {
        const turn = notification.params.turn;
        if (turn.status === 'interrupted') return [];
        const reconciled: ExecEvent[] = [...this.open.values()].map((item) => ({ type: 'item.completed', item }));
        this.open.clear();
        const delivered = this.deliveries.length > 0 ? { tiller_inputs_delivered: this.deliveries } : {};
        if (turn.status === 'failed') {
          const message = turn.error ? errorText(turn.error) : (this.lastError ?? 'turn failed');
          return [...reconciled, { type: 'turn.failed', error: { message }, ...delivered }];
        }
        const u = this.usage;
        return [
          ...reconciled,
          {
            type: 'turn.completed',
            usage: {
              input_tokens: u?.inputTokens ?? 0,
              cached_input_tokens: u?.cachedInputTokens ?? 0,
              cache_write_input_tokens: u?.cacheWriteInputTokens ?? 0,
              output_tokens: u?.outputTokens ?? 0,
              reasoning_output_tokens: u?.reasoningOutputTokens ?? 0,
            },
            ...delivered,
          },
        ];
      }
      default:
        return [];
    }
  }
}
