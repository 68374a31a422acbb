/** MCP failure modes against the in-repo fixture server: start-up, schemas, slow and failing tools, crashes. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadItem } from '../../src/protocol/api.js';
import type { Harness } from './support/harness.js';
import { OFFERED, tempDir, text } from './support/harness.js';
import { callTool, fixtureServer, functionOutputs, startMcpHarness, toolNames, waitForExit, waitForServer } from './mcp-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;
const completedMcp = (harness: Harness): McpItem[] =>
  harness.log.of('item/completed').flatMap((n) => (n.item.type === 'mcpToolCall' ? [n.item] : []));

async function until(test: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('start-up failures', () => {
  it('a server that exits on start is failed with its stderr, one warning; the session goes on with shell', async () => {
    h = await startMcpHarness({ boom: fixtureServer(['--crash-on-start']) });
    const status = await waitForServer(h, 'boom', 'failed');
    expect(status.error).toBe('exited with code 3: fixture: cannot start, no config');
    expect(status.startupError).toBe(status.error);
    await until(() => h!.log.of('warning').length > 0);
    expect(h.log.of('warning')).toEqual([
      {
        threadId: h.threadId,
        turnId: '',
        message: 'MCP server "boom" failed to start: exited with code 3: fixture: cannot start, no config',
      },
    ]);
    expect(h.log.of('mcpServer/startupStatus/updated').map((n) => n.status)).toEqual(['starting', 'failed']);
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(toolNames(h.fake.requests[0]!.body)).toEqual(OFFERED);
  });

  it('a server that never answers is failed after startup_timeout_sec, and its process is ended', async () => {
    const pidFile = join(tempDir(), 'pid');
    // A shell is up at once (tsx under load may take longer than the timeout), and `sleep` ignores a closed stdin: ended by signal.
    h = await startMcpHarness({
      stuck: { command: '/bin/sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 1000`], startup_timeout_sec: 0.5 },
    });
    const status = await waitForServer(h, 'stuck', 'failed');
    expect(status.error).toBe('timed out after 0.5 s (startup_timeout_sec)');
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0);
    await waitForExit(Number(readFileSync(pidFile, 'utf8')));
  });

  it('a command that does not exist is failed with the reason', async () => {
    h = await startMcpHarness({ nothere: { command: '/nonexistent/mcp-server' } });
    const status = await waitForServer(h, 'nothere', 'failed');
    expect(status.error).toMatch(/ENOENT/);
  });

  it('a tool whose input schema is not an object schema is left out with a warning; the others are offered', async () => {
    h = await startMcpHarness({ fx: fixtureServer(['--bad-schema']) });
    const status = await waitForServer(h, 'fx', 'ready');
    expect(Object.keys(status.tools)).not.toContain('bad');
    expect(Object.keys(status.tools)).toContain('echo');
    await until(() => h!.log.of('warning').length > 0);
    expect(h.log.of('warning').map((w) => w.message)).toEqual([
      'MCP server "fx": tool "bad" was left out: its input schema is not an object schema',
    ]);
  });

  it('a disabled server is listed as disabled and never started', async () => {
    h = await startMcpHarness({ off: fixtureServer([], { enabled: false }), on: fixtureServer() });
    await waitForServer(h, 'on', 'ready');
    const { data } = await h.server.request('mcpServerStatus/list', {});
    expect(data.map((s) => [s.name, s.status])).toEqual([
      ['off', 'disabled'],
      ['on', 'ready'],
    ]);
    expect(h.log.of('mcpServer/startupStatus/updated').map((n) => n.name)).not.toContain('off');
    const page = await h.server.request('mcpServerStatus/list', { limit: 1 });
    expect(page.data.map((s) => s.name)).toEqual(['off']);
    expect(page.nextCursor).toBe('1');
    expect((await h.server.request('mcpServerStatus/list', { cursor: page.nextCursor })).data.map((s) => s.name)).toEqual(['on']);
  });
});

describe('tool calls', () => {
  it('an interrupt during a slow call cancels it on the server and the turn ends interrupted', async () => {
    const log = join(tempDir(), 'log');
    h = await startMcpHarness({ fx: fixtureServer(['--log', log], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__slow', { ms: 60_000 }));
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go slow')] });
    await h.log.waitFor('item/started', (n) => n.item.type === 'mcpToolCall');
    const progress = await h.log.waitFor('item/mcpToolCall/progress');
    expect(progress.message).toBe('sleeping');
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('interrupted');
    expect(completedMcp(h)).toEqual([expect.objectContaining({ tool: 'slow', status: 'failed', error: { message: 'interrupted' } })]);
    await until(() => existsSync(log) && readFileSync(log, 'utf8').includes('cancelled slow'));
    // The server is still there for the next turn.
    h.fake.enqueue(callTool('fx__echo', { text: 'again' }, 'c2'), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('again')] });
    await h.log.waitFor('turn/completed', (n) => n.turn.id !== turn.id);
    expect(functionOutputs(h.fake.requests.at(-1)!.body)).toEqual(['aborted', 'echo: again']);
  });

  it('a call longer than tool_timeout_sec fails with a timeout; the model is told and the turn completes', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true, tool_timeout_sec: 0.3 }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__slow', { ms: 10_000 }), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(completedMcp(h)[0]).toMatchObject({ status: 'failed', error: { message: 'timed out after 0.3 s (tool_timeout_sec)' } });
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual([
      'error: the MCP tool call failed: timed out after 0.3 s (tool_timeout_sec)',
    ]);
  });

  it('isError results are failed items with the result kept, and marked for the model', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__fail', {}), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(completedMcp(h)[0]).toMatchObject({
      status: 'failed',
      error: { message: 'fixture failure: nothing works' },
      result: { content: [{ type: 'text', text: 'fixture failure: nothing works' }], structuredContent: null },
    });
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual(['MCP tool error:\nfixture failure: nothing works']);
  });

  it('a huge result is capped for the model and in the item (head and tail kept)', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__huge', { bytes: 2_000_000 }), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    const [output] = functionOutputs(h.fake.requests[1]!.body);
    expect(output!.startsWith('STARTxxx')).toBe(true);
    expect(output!.endsWith('xxxEND')).toBe(true);
    expect(output).toMatch(/\[… \d+ bytes omitted …\]/);
    expect(output!.length).toBeLessThan(30 * 1024);
    const itemText = (completedMcp(h)[0]!.result!.content[0] as { text: string }).text;
    expect(itemText.length).toBeLessThan(30 * 1024);
    expect(itemText).toMatch(/bytes omitted/);
  });

  it('image content and structured content: a note and the JSON for the model', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__image', {}), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual([
      'a picture:\n[image: image/png, 70 bytes]\nstructured content: {"width":1,"height":1}',
    ]);
    expect(completedMcp(h)[0]!.result!.structuredContent).toEqual({ width: 1, height: 1 });
  });

  it('a server that crashes mid-call: the call fails with the reason, the server is failed, its tools go; a mention starts it again', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__crash', {}), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    const first = await h.log.waitFor('turn/completed');
    expect(first.turn.status).toBe('completed');
    expect(completedMcp(h)[0]).toMatchObject({
      status: 'failed',
      error: { message: 'the server exited with code 7: fixture: crashing mid-call' },
    });
    expect(toolNames(h.fake.requests[1]!.body)).toEqual(OFFERED);
    const status = await waitForServer(h, 'fx', 'failed');
    expect(status.error).toBe('exited with code 7: fixture: crashing mid-call');
    expect(h.log.of('warning').map((w) => w.message)).toContain('MCP server "fx" stopped: exited with code 7: fixture: crashing mid-call');

    await h.server.request('turn/start', { threadId: h.threadId, input: [text('use mcp://fx again')] });
    const second = await h.log.waitFor('turn/completed', (n) => n.turn.id !== first.turn.id);
    expect(second.turn.status).toBe('completed');
    expect(h.log.of('tiller/mcpServerStarting')).toEqual([{ threadId: h.threadId, turnId: second.turn.id, server: 'fx' }]);
    expect(toolNames(h.fake.requests[2]!.body)).toContain('fx__echo');
  });

  it('many calls in one turn: each answered in order, and no abort listeners pile up on the turn', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
      await waitForServer(h, 'fx', 'ready');
      const calls = Array.from({ length: 15 }, (_, i) => callTool('fx__echo', { text: `n${i}` }, `c${i}`));
      h.fake.enqueue(...calls, { text: 'done' });
      await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
      expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
      expect(functionOutputs(h.fake.requests[15]!.body)).toEqual(calls.map((_, i) => `echo: n${i}`));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an unknown tool name is not called', async () => {
    h = await startMcpHarness({ fx: fixtureServer([], { trusted: true }) });
    await waitForServer(h, 'fx', 'ready');
    h.fake.enqueue(callTool('fx__nope', {}), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual(['unsupported call: fx__nope']);
    expect(completedMcp(h)).toEqual([]);
  });
});
