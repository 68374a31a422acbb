/**
 * A model's call of an MCP tool: an `mcpToolCall` item, the approval the policy asks for (as a
 * command's, `command` reading `server.tool({…})`; a `trusted` server's tools and `never` do not
 * ask; there is no sandbox for MCP, so `untrusted` and `on-request` ask; with no one to ask, the
 * policy decides alone, see unattendedDecision), then the call itself:
 * interrupted with the turn, cut off after `tool_timeout_sec`, its progress forwarded, its result
 * read back to the model as a string (mcp/format.ts).
 */
import type { CommandApprovalDecision, ThreadItem } from '../../../protocol/api.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import { NoApproverError } from '../../core/no-approver.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import { callSummary, errorTextOf, formatResultForModel, resultForItem } from '../../mcp/format.js';
import type { McpToolEntry } from '../../mcp/manager.js';
import { toolKey } from '../../mcp/names.js';

export const MCP_DECLINED_OUTPUT = 'The user declined this MCP tool call. Do not retry it unless the user asks.';

/** `untrusted` with no one to ask: why the call did not run (the item's error and the model's output). */
export const MCP_NEEDS_APPROVAL_ERROR =
  'not run: the untrusted approval policy asks before every MCP tool call, and no one is here to approve it (mark the server trusted, or use on-request or never)';

/**
 * With no one to ask, the policy decides: `on-request` and `on-failure` run the call (as Codex's
 * `exec --full-auto` does: a model's MCP call is not an escalation there), `untrusted` does not.
 */
function unattendedDecision(policy: string): 'run' | 'refuse' {
  return policy === 'untrusted' ? 'refuse' : 'run';
}

type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;

/** The arguments as an object, or why they are not one (told to the model). */
export function parseMcpArguments(raw: string): { args: Record<string, unknown> } | { error: string } {
  if (raw.trim().length === 0) return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { error: 'failed to parse function arguments: not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'failed to parse function arguments: expected a JSON object' };
  return { args: value as Record<string, unknown> };
}

export async function handleMcpToolCall(
  services: TurnServices,
  turn: ActiveTurn,
  call: FunctionCall,
  entry: McpToolEntry,
): Promise<ToolCallResult> {
  const parsed = parseMcpArguments(call.arguments);
  if ('error' in parsed) return { output: functionCallOutput(call.call_id, parsed.error), aborted: false };
  const args = parsed.args;
  const mcp = services.mcp;
  const events = services.events;
  const itemId = newId();
  const item = (over: Partial<McpItem>): McpItem => ({
    type: 'mcpToolCall',
    id: itemId,
    server: entry.server,
    tool: entry.tool,
    status: 'inProgress',
    arguments: args,
    result: null,
    error: null,
    durationMs: null,
    ...over,
  });
  const complete = (done: McpItem): void => {
    turn.openItems.delete(itemId);
    turn.toolItemCompleted(done);
    events.itemCompleted(done);
  };
  events.itemStarted(item({}));

  const key = toolKey(entry.server, entry.tool);
  const needsApproval = turn.context.approvalPolicy !== 'never' && !entry.trusted && !services.approvals.mcpTools.has(key);
  if (needsApproval) {
    turn.openItems.set(itemId, item({ status: 'failed', error: { message: 'interrupted' } }));
    const asked = await askApproval(services, turn, itemId, entry, args);
    if (asked === 'unattended' && unattendedDecision(turn.context.approvalPolicy) === 'refuse') {
      complete(item({ status: 'failed', error: { message: MCP_NEEDS_APPROVAL_ERROR } }));
      return { output: functionCallOutput(call.call_id, `error: ${MCP_NEEDS_APPROVAL_ERROR}`), aborted: false };
    }
    if (typeof asked === 'object') {
      complete(item({ status: 'failed', error: { message: `not run: ${asked.failed}` } }));
      return { output: functionCallOutput(call.call_id, `error: the MCP tool call was not run: ${asked.failed}`), aborted: false };
    }
    const decision = asked === 'unattended' ? 'accept' : asked;
    if (turn.signal.aborted) {
      complete(item({ status: 'failed', error: { message: 'interrupted' } }));
      return { output: functionCallOutput(call.call_id, 'aborted'), aborted: true };
    }
    if (decision !== 'accept' && decision !== 'acceptForSession') {
      complete(item({ status: 'failed', error: { message: 'declined by the user' } }));
      if (decision === 'cancel') services.requestInterrupt();
      return { output: functionCallOutput(call.call_id, MCP_DECLINED_OUTPUT), aborted: decision === 'cancel' };
    }
    if (decision === 'acceptForSession') services.approvals.mcpTools.add(key);
  }

  turn.openItems.set(itemId, item({ status: 'failed', error: { message: 'interrupted' } }));
  const started = services.now();
  if (mcp === null) {
    complete(item({ status: 'failed', error: { message: 'MCP is not available in this session' }, durationMs: 0 }));
    return { output: functionCallOutput(call.call_id, 'error: MCP is not available in this session'), aborted: false };
  }
  try {
    const result = await mcp.callTool(entry, args, {
      signal: turn.signal,
      onProgress: (message) => events.emit('item/mcpToolCall/progress', { itemId, message }),
    });
    const durationMs = Math.max(0, services.now() - started);
    const failed = result.isError === true;
    complete(
      item({
        status: failed ? 'failed' : 'completed',
        result: resultForItem(result),
        error: failed ? { message: errorTextOf(result) } : null,
        durationMs,
      }),
    );
    return { output: functionCallOutput(call.call_id, formatResultForModel(result)), aborted: turn.signal.aborted };
  } catch (error) {
    const durationMs = Math.max(0, services.now() - started);
    const kind = (error as { kind?: string }).kind;
    const message = error instanceof Error ? error.message : String(error);
    if (turn.signal.aborted || kind === 'aborted') {
      complete(item({ status: 'failed', error: { message: 'interrupted' }, durationMs }));
      return { output: functionCallOutput(call.call_id, 'aborted'), aborted: true };
    }
    complete(item({ status: 'failed', error: { message }, durationMs }));
    return { output: functionCallOutput(call.call_id, `error: the MCP tool call failed: ${message}`), aborted: false };
  }
}

async function askApproval(
  services: TurnServices,
  turn: ActiveTurn,
  itemId: string,
  entry: McpToolEntry,
  args: Record<string, unknown>,
): Promise<CommandApprovalDecision | 'unattended' | { failed: string }> {
  try {
    return await services.requestApproval({
      itemId,
      command: callSummary(entry.server, entry.tool, args),
      cwd: turn.context.cwd,
      reason: `MCP tool "${entry.tool}" of server "${entry.server}" (MCP tools run outside the sandbox)`,
      tillerMcpToolCall: { server: entry.server, tool: entry.tool, arguments: args },
    });
  } catch (error) {
    // No one to ask: the policy decides. The client failed to answer: nothing runs, and no decline is claimed.
    if (error instanceof NoApproverError) return 'unattended';
    return { failed: `the approval request failed (${error instanceof Error ? error.message : String(error)})` };
  }
}
