import { describe, expect, it } from 'vitest';
import { parseParams, WARM_TURN_START } from '../../src/runtime/app-server-params.js';

describe('app-server params', () => {
  it('names the offending field', () => {
    expect(parseParams('turn/start', { threadId: 1, input: [] })).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid params: threadId: /),
    });
    expect(
      parseParams('turn/start', {
        threadId: 't',
        input: [{ type: 'text', text: 'x', text_elements: [{ byteRange: { start: 0, end: 'x' } }] }],
      }),
    ).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid params: input\[0\]\.text_elements\[0\]\.byteRange\.end: /),
    });
    expect(parseParams('turn/start', { threadId: 't', input: [{ type: 'video' }] })).toEqual({
      ok: false,
      message: expect.stringContaining('input[0]'),
    });
    expect(parseParams('initialize', undefined)).toEqual({ ok: false, message: expect.stringMatching(/^Invalid params: params: /) });
  });

  it('takes text element ranges outside their text, as Codex, without them', () => {
    const result = parseParams('turn/steer', {
      threadId: 't',
      expectedTurnId: 'u',
      input: [{ type: 'text', text: 'ab', text_elements: [{ byteRange: { start: 0, end: 9 }, placeholder: null }] }],
    });
    expect(result).toEqual({
      ok: true,
      value: { threadId: 't', expectedTurnId: 'u', input: [{ type: 'text', text: 'ab', text_elements: [] }] },
    });
  });

  it('accepts valid params, defaults text_elements, and lets thread/start omit params', () => {
    const ok = parseParams('turn/start', { threadId: 't', input: [{ type: 'text', text: 'x' }], extra: true });
    expect(ok).toEqual({ ok: true, value: { threadId: 't', input: [{ type: 'text', text: 'x', text_elements: [] }] } });
    expect(parseParams('thread/start', undefined)).toEqual({ ok: true, value: {} });
  });

  it('the thread methods: Codex names, thread/list without params, bad fields named', () => {
    expect(parseParams('thread/list', undefined)).toEqual({ ok: true, value: {} });
    expect(parseParams('thread/list', { cwd: ['/a', '/b'], searchTerm: 'x', limit: 5, cursor: null, sourceKinds: ['cli'] })).toMatchObject({
      ok: true,
    });
    expect(parseParams('thread/list', { cwd: 5 })).toEqual({ ok: false, message: expect.stringMatching(/^Invalid params: cwd: /) });
    expect(parseParams('thread/list', { sourceKinds: ['tv'] })).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid params: sourceKinds\[0\]: /),
    });
    expect(parseParams('thread/read', {})).toEqual({ ok: false, message: expect.stringMatching(/^Invalid params: threadId: /) });
    expect(parseParams('thread/resume', { threadId: 't', sandbox: 'none' })).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid params: sandbox: /),
    });
    expect(parseParams('thread/fork', { threadId: 't', lastTurnId: 'u', ephemeral: true })).toMatchObject({
      ok: true,
      value: { threadId: 't', lastTurnId: 'u', ephemeral: true },
    });
    expect(parseParams('thread/revert', { threadId: 't', beforeTurnId: '' })).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid params: beforeTurnId: /),
    });
  });

  it('warms the turn/start parser with params a message could have sent (the success path, items and ranges)', () => {
    expect(parseParams('turn/start', WARM_TURN_START)).toMatchObject({
      ok: true,
      value: { input: [{ type: 'text', text: 'warm', text_elements: [] }] },
    });
  });
});
