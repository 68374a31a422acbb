/** A model's function call and its answer, shared by every tool (tools/tool.ts). */
import type { ResponseItem } from '../../protocol/response-items.js';

export interface FunctionCall {
  call_id: string;
  name: string;
  arguments: string;
}

export interface ToolCallResult {
  output: ResponseItem;
  /** The turn was interrupted while the tool ran (or waited for approval). */
  aborted: boolean;
}

export function functionCallOutput(callId: string, output: string): ResponseItem {
  return { type: 'function_call_output', call_id: callId, output };
}
