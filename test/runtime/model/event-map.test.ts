import { describe, expect, it } from 'vitest';
import { mapStreamEvent } from '../../../src/runtime/model/wires/responses/event-map.js';
import { httpStatusError, streamFailureError } from '../../../src/runtime/model/errors.js';

const failed = (code: string, message = 'm') => mapStreamEvent({ type: 'response.failed', response: { error: { code, message } } });

describe('mapStreamEvent', () => {
  it('ignores unknown event types and output items', () => {
    expect(mapStreamEvent({ type: 'response.in_progress' })).toBeNull();
    expect(mapStreamEvent({ type: 'response.content_part.added' })).toBeNull();
    expect(mapStreamEvent({ type: 'response.output_item.added', item: { type: 'image_generation_call', id: 'w' } })).toBeNull();
    expect(mapStreamEvent('not an object')).toBeNull();
  });

  it('maps reasoning deltas of both kinds', () => {
    expect(mapStreamEvent({ type: 'response.reasoning_summary_text.delta', item_id: 'r1', delta: 'x', summary_index: 0 })).toEqual({
      event: { type: 'reasoning_delta', itemId: 'r1', delta: 'x' },
    });
    expect(mapStreamEvent({ type: 'response.reasoning_text.delta', item_id: 'r1', delta: 'y', content_index: 0 })).toEqual({
      event: { type: 'reasoning_delta', itemId: 'r1', delta: 'y' },
    });
  });

  it('maps a reasoning item with its summary and a refusal as output text', () => {
    expect(
      mapStreamEvent({
        type: 'response.output_item.done',
        item: { type: 'reasoning', id: 'r1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'e' },
      }),
    ).toEqual({
      event: {
        type: 'output_item_done',
        item: { type: 'reasoning', id: 'r1', summary: [{ type: 'summary_text', text: 'thinking' }], content: null, encrypted_content: 'e' },
      },
    });
    expect(
      mapStreamEvent({
        type: 'response.output_item.done',
        item: { type: 'custom_tool_call', id: 'c1', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n' },
      }),
    ).toEqual({
      event: {
        type: 'output_item_done',
        item: { type: 'custom_tool_call', id: 'c1', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n' },
      },
    });
    expect(
      mapStreamEvent({
        type: 'response.output_item.done',
        item: { type: 'message', id: 'm', role: 'assistant', content: [{ type: 'refusal', refusal: 'no' }] },
      }),
    ).toEqual({
      event: {
        type: 'output_item_done',
        item: { type: 'message', id: 'm', role: 'assistant', content: [{ type: 'output_text', text: 'no' }] },
      },
    });
  });

  it('maps usage including cached, cache-write and reasoning tokens (total: input + output when absent)', () => {
    const mapped = mapStreamEvent({
      type: 'response.completed',
      response: {
        id: 'r',
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 4, cache_write_tokens: 3 },
          output_tokens: 5,
          output_tokens_details: { reasoning_tokens: 2 },
        },
      },
    });
    expect(mapped).toEqual({
      event: {
        type: 'completed',
        responseId: 'r',
        usage: {
          input_tokens: 10,
          cached_input_tokens: 4,
          cache_write_input_tokens: 3,
          output_tokens: 5,
          reasoning_output_tokens: 2,
          total_tokens: 15,
        },
        endTurn: null,
      },
    });
  });

  it('maps response.failed codes as Codex does', () => {
    expect(failed('context_length_exceeded')).toMatchObject({ error: { retryable: false, info: 'contextWindowExceeded' } });
    expect(failed('insufficient_quota')).toMatchObject({ error: { retryable: false, info: 'usageLimitExceeded' } });
    expect(failed('usage_not_included')).toMatchObject({ error: { retryable: false, info: 'usageLimitExceeded' } });
    expect(failed('cyber_policy')).toMatchObject({ error: { retryable: false, info: 'cyberPolicy' } });
    expect(failed('invalid_prompt', 'bad prompt')).toMatchObject({
      error: { retryable: false, info: 'badRequest', message: 'bad prompt' },
    });
    expect(failed('server_is_overloaded')).toMatchObject({ error: { retryable: false, info: 'serverOverloaded' } });
    expect(failed('server_error', 'oops, try again in 2s')).toMatchObject({
      error: { retryable: true, retryAfterMs: 2000, info: { responseStreamDisconnected: { httpStatusCode: null } } },
    });
  });

  it('maps response.incomplete to a retryable stream error naming the reason', () => {
    expect(
      mapStreamEvent({ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }),
    ).toMatchObject({
      error: { retryable: true, message: 'Incomplete response returned, reason: max_output_tokens' },
    });
    expect(mapStreamEvent({ type: 'response.incomplete', response: {} })).toMatchObject({
      error: { message: 'Incomplete response returned, reason: unknown' },
    });
  });

  it('maps an `error` event by its code', () => {
    expect(mapStreamEvent({ type: 'error', code: 'context_length_exceeded', message: 'x' })).toMatchObject({
      error: { retryable: false, info: 'contextWindowExceeded' },
    });
  });
});

describe('httpStatusError', () => {
  const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

  it('takes retry-after-ms over Retry-After and an HTTP date relative to now', () => {
    expect(
      httpStatusError({ status: 429, headers: headers({ 'retry-after-ms': '250', 'retry-after': '9' }), message: '' }).retryAfterMs,
    ).toBe(250);
    const now = Date.parse('Sun, 29 Nov 2026 19:00:00 GMT');
    expect(
      httpStatusError({ status: 503, headers: headers({ 'retry-after': 'Sun, 29 Nov 2026 19:00:03 GMT' }), message: '' }, now).retryAfterMs,
    ).toBe(3000);
  });

  it('does not retry client errors other than 408, 409 and 429', () => {
    expect(httpStatusError({ status: 404, message: 'not found' })).toMatchObject({ retryable: false, info: 'other' });
    expect(httpStatusError({ status: 408, message: '' })).toMatchObject({ retryable: true });
  });

  it('keeps the server message for a context window overflow reported as 400', () => {
    const error = httpStatusError({ status: 400, error: { code: 'context_length_exceeded', message: 'too many tokens' }, message: '' });
    expect(error).toMatchObject({ retryable: false, info: 'contextWindowExceeded', additionalDetails: 'too many tokens' });
  });
});

describe('streamFailureError', () => {
  it('falls back to a generic message', () => {
    expect(streamFailureError(null, null).message).toBe('response failed');
  });
});
