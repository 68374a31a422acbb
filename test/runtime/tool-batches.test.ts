/** parallel_tool_calls: consecutive read-only calls share a batch; any other call stands alone, in order. */
import { describe, expect, it } from 'vitest';
import type { FunctionCall } from '../../src/runtime/core/function-call.js';
import { callBatches } from '../../src/runtime/core/tool-calls.js';
import type { ToolTable } from '../../src/runtime/tools/registry.js';
import type { Tool } from '../../src/runtime/tools/tool.js';

const tool = (name: string, readOnly?: Tool['readOnly']): Tool => ({
  name,
  confinement: 'sandbox',
  itemType: 'commandExecution',
  spec: () => null,
  handle: () => Promise.reject(new Error('not run here')),
  ...(readOnly ? { readOnly } : {}),
});

const table: ToolTable = {
  specs: [],
  byName: new Map([
    ['read', tool('read', () => true)],
    ['maybe', tool('maybe', async (call) => call.arguments === 'safe')],
    ['write', tool('write')],
    ['broken', tool('broken', () => Promise.reject(new Error('cannot tell')))],
  ]),
};
const call = (name: string, args = ''): FunctionCall => ({ call_id: `${name}-${args}`, name, arguments: args });

describe('callBatches', () => {
  it('groups runs of read-only calls and keeps every write alone, in the order of the calls', async () => {
    const calls = [call('read', '1'), call('maybe', 'safe'), call('write'), call('read', '2'), call('maybe', 'rm'), call('unknown')];
    const batches = await callBatches({} as never, {} as never, calls, table);
    expect(batches.map((batch) => batch.map((c) => c.call_id))).toEqual([
      ['read-1', 'maybe-safe'],
      ['write-'],
      ['read-2'],
      ['maybe-rm'],
      ['unknown-'],
    ]);
  });

  it('a tool that cannot tell is treated as writing', async () => {
    const batches = await callBatches({} as never, {} as never, [call('read'), call('broken'), call('read')], table);
    expect(batches.map((batch) => batch.length)).toEqual([1, 1, 1]);
  });
});
