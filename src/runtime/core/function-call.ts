/** A model's tool call and its answer, shared by every tool (tools/tool.ts). */
import { type ResponseItem, type ToolOutputContent, toolOutputText } from '../../protocol/response-items.js';

export interface FunctionCall {
  call_id: string;
  name: string;
  /** The JSON arguments of a function call, or the raw input of a freeform (custom) tool call. */
  arguments: string;
  /** `custom`: a freeform tool's call (apply_patch's grammar), answered by a custom_tool_call_output. */
  kind?: 'function' | 'custom';
}

export interface ToolCallResult {
  output: ResponseItem;
  /** The turn was interrupted while the tool ran (or waited for approval). */
  aborted: boolean;
}

export function functionCallOutput(callId: string, output: string | ToolOutputContent[]): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
}

/** The answer in the form the call came in: a freeform call gets text back, a function call text or content. */
export function callOutput(call: FunctionCall, output: string | ToolOutputContent[]): ResponseItem {
  if (call.kind === 'custom') return { type: 'custom_tool_call_output', call_id: call.call_id, output: toolOutputText(output) };
  return functionCallOutput(call.call_id, output);
}

/** The tool calls among a response's output items, in order, as the tools read them. */
export function toolCallsOf(items: readonly ResponseItem[]): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const item of items) {
    if (item.type === 'function_call') calls.push({ call_id: item.call_id, name: item.name, arguments: item.arguments, kind: 'function' });
    else if (item.type === 'custom_tool_call')
      calls.push({ call_id: item.call_id, name: item.name, arguments: item.input, kind: 'custom' });
  }
  return calls;
}
