/**
 * The Claude family: claude-* models that can think get thinking by default on the Anthropic wire,
 * and apply_patch as a function (the Messages API has no freeform tools). Older Claude models get
 * neither thinking nor a field they would refuse.
 */
import { describe, expect, it } from 'vitest';
import { modelRequestBody } from '../../src/runtime/core/request-body.js';
import { messagesBody } from '../../src/runtime/model/wires/anthropic/request.js';
import { modelFamily } from '../../src/runtime/tools/model-family.js';
import { toolTable } from '../../src/runtime/tools/registry.js';

const body = (model: string, effort: 'high' | null = null) =>
  modelRequestBody({ model, input: [], tools: toolTable(modelFamily(model)).specs, threadId: 't', effort, outputSchema: null });

describe('the Claude model family', () => {
  it.each(['claude-sonnet-4-5', 'claude-opus-4-1-20250805', 'claude-haiku-4-5', 'claude-3-7-sonnet-latest', 'claude-4-opus'])(
    '%s thinks by default at low effort and takes apply_patch as a function',
    (model) => {
      expect(modelFamily(model)).toMatchObject({ id: 'claude', applyPatch: 'function', reasoning: true, defaultEffort: 'low' });
      const sent = messagesBody(body(model));
      expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      const patch = sent.tools?.find((tool) => tool.name === 'apply_patch');
      expect(patch).toMatchObject({ input_schema: { properties: { input: { type: 'string' } } } });
    },
  );

  it('an effort chosen in config or /model wins over the default', () => {
    expect(messagesBody(body('claude-sonnet-4-5', 'high')).thinking).toMatchObject({ type: 'enabled' });
    expect(messagesBody(body('claude-sonnet-4-5', 'high')).thinking).not.toEqual({ type: 'enabled', budget_tokens: 4096 });
  });

  it('Claude 3.5 and 3, which cannot think, get no thinking unless asked', () => {
    for (const model of ['claude-3-5-sonnet-latest', 'claude-3-haiku-20240307']) {
      expect(modelFamily(model).id).toBe('other');
      expect(messagesBody(body(model)).thinking).toBeUndefined();
    }
  });
});
