/**
 * Dispatches the model's tool calls to the tool the request's table names (tools/registry.ts); a
 * name it does not know is told back to the model. Calls that only read run side by side, as
 * `parallel_tool_calls` lets the model ask; their answers keep the order of the calls.
 */
import { shellPatch, type ToolTable } from '../tools/registry.js';
import { callOutput, type FunctionCall, type ToolCallResult } from './function-call.js';
import type { TurnServices } from './turn-services.js';
import type { ActiveTurn } from './turn-state.js';

export function handleFunctionCall(
  services: TurnServices,
  turn: ActiveTurn,
  call: FunctionCall,
  tools: ToolTable,
): Promise<ToolCallResult> {
  const tool = tools.byName.get(call.name);
  if (tool === undefined) return Promise.resolve({ output: callOutput(call, `unsupported call: ${call.name}`), aborted: false });
  return tool.handle({ services, turn, call, shellPatch: (command, workdir) => shellPatch(command, { services, turn, call, workdir }) });
}

async function isReadOnly(services: TurnServices, turn: ActiveTurn, call: FunctionCall, tools: ToolTable): Promise<boolean> {
  const tool = tools.byName.get(call.name);
  if (tool?.readOnly === undefined) return false;
  try {
    return await tool.readOnly(call, { services, turn, call });
  } catch {
    return false;
  }
}

/**
 * Splits the calls into runs: consecutive read-only calls form one batch, any other call a batch
 * of its own, so a write never overlaps another call.
 */
export async function callBatches(
  services: TurnServices,
  turn: ActiveTurn,
  calls: readonly FunctionCall[],
  tools: ToolTable,
): Promise<FunctionCall[][]> {
  const batches: FunctionCall[][] = [];
  let reading: FunctionCall[] | null = null;
  for (const call of calls) {
    if (await isReadOnly(services, turn, call, tools)) {
      if (reading === null) batches.push((reading = []));
      reading.push(call);
    } else {
      reading = null;
      batches.push([call]);
    }
  }
  return batches;
}
