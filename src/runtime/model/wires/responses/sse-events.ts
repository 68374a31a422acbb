/**
 * Builds the Responses streaming events of one response, shaped as the real API sends them, and
 * encodes them as SSE frames. Shared by the embedded offline model and the test server so both
 * exercise the same SDK parsing path a real server does.
 */

export interface ResponseScript {
  responseId: string;
  model: string;
  /** Assistant text, already split into the deltas to stream (empty → no message item). */
  deltas: string[];
  functionCall?: { name: string; arguments: string; callId: string };
  /** More calls after `functionCall`, in order (the model asking for several at once). */
  functionCalls?: Array<{ name: string; arguments: string; callId: string }>;
  /** Freeform tool calls (apply_patch), after the function calls. */
  customToolCalls?: Array<{ name: string; input: string; callId: string }>;
  /** A reasoning item before everything else: its summary parts stream, its encrypted content comes whole. */
  reasoning?: { summary: string[]; encryptedContent?: string };
  /** Hosted web searches the server ran, after the reasoning and before the answer (`web_search_call` items). */
  webSearches?: Array<{ action: Record<string, unknown> }>;
  /** `end_turn` on response.completed; undefined leaves the field out. */
  endTurn?: boolean;
  usage?: ScriptUsage;
}

export type StreamEvent = { type: string; sequence_number: number } & Record<string, unknown>;

export function encodeSse(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Splits text into word deltas that concatenate back to the exact text (spaces stay attached). */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? (text.length > 0 ? [text] : []);
}

/** What `response.completed` reports; the cache and reasoning counts default to 0. */
export interface ScriptUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
}

export function responseEvents(script: ResponseScript): StreamEvent[] {
  const events: StreamEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>): void => {
    events.push({ type, sequence_number: events.length, ...fields });
  };
  const createdAt = Math.floor(Date.now() / 1000);
  const base = { id: script.responseId, object: 'response', created_at: createdAt, model: script.model };
  push('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });

  const output: Record<string, unknown>[] = [];
  if (script.reasoning) {
    const outputIndex = output.length;
    const itemId = `rs_${script.responseId}_${outputIndex}`;
    const pending = { id: itemId, type: 'reasoning', summary: [] as unknown[] };
    push('response.output_item.added', { output_index: outputIndex, item: pending });
    script.reasoning.summary.forEach((text, summaryIndex) => {
      const at = { item_id: itemId, output_index: outputIndex, summary_index: summaryIndex };
      push('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
      for (const delta of splitWords(text)) push('response.reasoning_summary_text.delta', { ...at, delta });
      push('response.reasoning_summary_text.done', { ...at, text });
      push('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
    });
    const item = {
      ...pending,
      summary: script.reasoning.summary.map((text) => ({ type: 'summary_text', text })),
      encrypted_content: script.reasoning.encryptedContent ?? null,
    };
    push('response.output_item.done', { output_index: outputIndex, item });
    output.push(item);
  }
  for (const search of script.webSearches ?? []) {
    const outputIndex = output.length;
    const itemId = `ws_${script.responseId}_${outputIndex}`;
    push('response.output_item.added', { output_index: outputIndex, item: { id: itemId, type: 'web_search_call', status: 'in_progress' } });
    for (const phase of ['in_progress', 'searching', 'completed'])
      push(`response.web_search_call.${phase}`, { item_id: itemId, output_index: outputIndex });
    const item = { id: itemId, type: 'web_search_call', status: 'completed', action: search.action };
    push('response.output_item.done', { output_index: outputIndex, item });
    output.push(item);
  }
  if (script.deltas.length > 0) {
    const outputIndex = output.length;
    const itemId = `msg_${script.responseId}_${outputIndex}`;
    const text = script.deltas.join('');
    const at = { item_id: itemId, output_index: outputIndex, content_index: 0 };
    push('response.output_item.added', {
      output_index: outputIndex,
      item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    push('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of script.deltas) push('response.output_text.delta', { ...at, delta, logprobs: [] });
    push('response.output_text.done', { ...at, text, logprobs: [] });
    const part = { type: 'output_text', text, annotations: [] };
    push('response.content_part.done', { ...at, part });
    const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    push('response.output_item.done', { output_index: outputIndex, item });
    output.push(item);
  }
  for (const call of [...(script.functionCall ? [script.functionCall] : []), ...(script.functionCalls ?? [])]) {
    const outputIndex = output.length;
    const itemId = `fc_${script.responseId}_${outputIndex}`;
    const { name, arguments: args, callId } = call;
    const pending = { id: itemId, type: 'function_call', status: 'in_progress', arguments: '', call_id: callId, name };
    push('response.output_item.added', { output_index: outputIndex, item: pending });
    push('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta: args });
    push('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, arguments: args });
    const item = { ...pending, status: 'completed', arguments: args };
    push('response.output_item.done', { output_index: outputIndex, item });
    output.push(item);
  }
  for (const call of script.customToolCalls ?? []) {
    const outputIndex = output.length;
    const itemId = `ctc_${script.responseId}_${outputIndex}`;
    const pending = { id: itemId, type: 'custom_tool_call', status: 'in_progress', input: '', call_id: call.callId, name: call.name };
    push('response.output_item.added', { output_index: outputIndex, item: pending });
    push('response.custom_tool_call_input.delta', { item_id: itemId, output_index: outputIndex, delta: call.input });
    push('response.custom_tool_call_input.done', { item_id: itemId, output_index: outputIndex, input: call.input });
    const item = { ...pending, status: 'completed', input: call.input };
    push('response.output_item.done', { output_index: outputIndex, item });
    output.push(item);
  }

  const usage = script.usage ?? { input_tokens: 0, output_tokens: 0 };
  const response: Record<string, unknown> = {
    ...base,
    status: 'completed',
    output,
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0, cache_write_tokens: usage.cache_write_tokens ?? 0 },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
      total_tokens: usage.input_tokens + usage.output_tokens,
    },
  };
  if (script.endTurn !== undefined) response.end_turn = script.endTurn;
  push('response.completed', { response });
  return events;
}

export function failedEvent(responseId: string, model: string, code: string, message: string, sequence: number): StreamEvent {
  return {
    type: 'response.failed',
    sequence_number: sequence,
    response: { id: responseId, object: 'response', model, status: 'failed', output: [], usage: null, error: { code, message } },
  };
}
