/** The smallest Responses request: one user message saying "hello", no tools (model client tests). */
import type { ModelRequest } from '../../../src/runtime/model/types.js';

export function helloRequest(model = 'test-model'): ModelRequest {
  return {
    model,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }],
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: 'thread-1',
  };
}
