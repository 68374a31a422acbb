/** The fileChange item and its approval request, checked against the JSON Schema of Codex 0.171's app server and Tiller's own zod shapes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ThreadItem } from '../../src/protocol/api.js';
import { serverRequestSchemas } from '../../src/protocol/wire/requests.js';
import { threadItemSchema } from '../../src/protocol/wire/shapes.js';

const SCHEMAS = join(import.meta.dirname, '../fixtures/codex-app-server-schema');
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const load = (file: string) => ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as object);

const item: ThreadItem = {
  type: 'fileChange',
  id: 'item-1',
  status: 'completed',
  changes: [
    { path: '/ws/a.txt', kind: { type: 'add' }, diff: 'hi\n' },
    { path: '/ws/b.txt', kind: { type: 'update', move_path: '/ws/c.txt' }, diff: '@@ -1 +1 @@\n-x\n+y\n' },
    { path: '/ws/d.txt', kind: { type: 'delete' }, diff: 'gone\n' },
  ],
};

describe('fileChange on the wire', () => {
  it("is Codex's v2 item, in item/completed", () => {
    const notification = load('ServerNotification.json');
    const message = { method: 'item/completed', params: { threadId: 't', turnId: 'u', item, completedAtMs: 1 } };
    expect(notification(message), JSON.stringify(notification.errors)).toBe(true);
    expect(threadItemSchema.parse(item)).toEqual(item);
  });

  it("asks with Codex's item/fileChange/requestApproval", () => {
    const request = load('ServerRequest.json');
    const params = { threadId: 't', turnId: 'u', itemId: 'item-1', startedAtMs: 1, reason: null, grantRoot: null };
    expect(request({ id: 1, method: 'item/fileChange/requestApproval', params }), JSON.stringify(request.errors)).toBe(true);
    expect(serverRequestSchemas['item/fileChange/requestApproval'].params.parse(params)).toEqual(params);
  });
});
