/** The harness tools' app-server messages validate against Codex 0.171's own JSON schema. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ServerNotification, ServerRequestMap } from '../../src/protocol/api.js';

const SCHEMAS = join(import.meta.dirname, '../fixtures/codex-app-server-schema');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const load = (file: string) => ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);
const notification = load('ServerNotification.json');
const serverRequest = load('ServerRequest.json');

const inTurn = { threadId: 't', turnId: 'u' };
const valid = (validate: ReturnType<typeof load>, message: unknown): unknown => (validate(message) ? 'valid' : validate.errors);

describe("the harness tools' messages against Codex 0.171's schema", () => {
  it('turn/plan/updated and the imageView and webSearch items', () => {
    const messages: ServerNotification[] = [
      {
        method: 'turn/plan/updated',
        params: {
          ...inTurn,
          explanation: null,
          plan: [
            { step: 'a', status: 'inProgress' },
            { step: 'b', status: 'pending' },
          ],
        },
      },
      { method: 'item/completed', params: { ...inTurn, completedAtMs: 1, item: { type: 'imageView', id: 'i', path: '/tmp/a.png' } } },
      {
        method: 'item/completed',
        params: {
          ...inTurn,
          completedAtMs: 1,
          item: { type: 'webSearch', id: 'w', query: 'q', action: { type: 'search', query: 'q', queries: null } },
        },
      },
      { method: 'item/started', params: { ...inTurn, startedAtMs: 1, item: { type: 'webSearch', id: 'w', query: '', action: null } } },
    ];
    for (const message of messages) expect(valid(notification, message)).toBe('valid');
  });

  it('item/tool/requestUserInput', () => {
    const params: ServerRequestMap['item/tool/requestUserInput']['params'] = {
      ...inTurn,
      itemId: 'call_1',
      isBlocking: true,
      autoResolutionMs: null,
      questions: [
        {
          id: 'color',
          header: 'Color',
          question: 'Which?',
          isOther: true,
          isSecret: false,
          options: [{ label: 'Red', description: 'warm' }],
        },
      ],
    };
    expect(valid(serverRequest, { id: 1, method: 'item/tool/requestUserInput', params })).toBe('valid');
  });
});
