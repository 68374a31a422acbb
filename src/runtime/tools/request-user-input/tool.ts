/**
 * The `request_user_input` tool: the questions go to the client as Codex's
 * `item/tool/requestUserInput` server request (the TUI shows a picker above the composer, which
 * stays free for steering), and the answers go back to the model as Codex's JSON. Nobody to ask
 * (`tiller exec`) or a client that fails: the model is told so and the turn goes on.
 */
import { functionCallOutput, type ToolCallResult } from '../../core/function-call.js';
import type { Tool } from '../tool.js';
import {
  CANCELLED_OUTPUT,
  formatAnswersForModel,
  NO_USER_OUTPUT,
  parseRequestUserInputArguments,
  REQUEST_USER_INPUT_TOOL_NAME,
  REQUEST_USER_INPUT_TOOL_SPEC,
} from './spec.js';

export const requestUserInputTool: Tool = {
  name: REQUEST_USER_INPUT_TOOL_NAME,
  confinement: 'unconfined',
  itemType: null,
  spec: () => REQUEST_USER_INPUT_TOOL_SPEC,
  handle: async ({ services, turn, call }): Promise<ToolCallResult> => {
    const parsed = parseRequestUserInputArguments(call.arguments);
    if ('error' in parsed) return { output: functionCallOutput(call.call_id, parsed.error), aborted: false };
    let output: string;
    try {
      // Codex names the request by the model's call id.
      const response = await services.requestUserInput({
        itemId: call.call_id,
        questions: parsed.questions,
        isBlocking: true,
        autoResolutionMs: null,
      });
      output = formatAnswersForModel(parsed.questions, response);
    } catch {
      output = turn.signal.aborted ? CANCELLED_OUTPUT : NO_USER_OUTPUT;
    }
    return { output: functionCallOutput(call.call_id, output), aborted: turn.signal.aborted };
  },
};
