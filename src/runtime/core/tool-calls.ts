/**
 * Dispatches the model's function calls to the tool the request offered under that name
 * (tools/registry.ts); a name it did not offer is told back to the model.
 */
import type { ToolTable } from '../tools/registry.js';
import { type FunctionCall, functionCallOutput, type ToolCallResult } from './function-call.js';
import type { TurnServices } from './turn-services.js';
import type { ActiveTurn } from './turn-state.js';

export function handleFunctionCall(
  services: TurnServices,
  turn: ActiveTurn,
  call: FunctionCall,
  tools: ToolTable,
): Promise<ToolCallResult> {
  const tool = tools.byName.get(call.name);
  if (tool === undefined)
    return Promise.resolve({ output: functionCallOutput(call.call_id, `unsupported call: ${call.name}`), aborted: false });
  return tool.handle({ services, turn, call });
}
