/** MCP through the in-process app server against the reference servers (everything, filesystem) over stdio. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ThreadItem } from '../../src/protocol/api.js';
import type { Harness } from './support/harness.js';
import { inputTexts, OFFERED, tempDir, text } from './support/harness.js';
import { callTool, everythingServer, filesystemServer, functionOutputs, startMcpHarness, toolNames, waitForServer } from './mcp-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;
const mcpItems = (harness: Harness, phase: 'item/started' | 'item/completed'): McpItem[] =>
  harness.log.of(phase).flatMap((n) => (n.item.type === 'mcpToolCall' ? [n.item] : []));

describe('the everything server', () => {
  it('lists its tools and resources, offers them as server__tool functions, and calls echo and get-sum', async () => {
    h = await startMcpHarness({ everything: everythingServer() });
    const status = await waitForServer(h, 'everything', 'ready');
    expect(Object.keys(status.tools)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(status.tools.echo!.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(status.resources.length).toBeGreaterThan(0);
    expect(status).toMatchObject({ authStatus: 'unsupported', startupError: null });
    expect(h.log.of('mcpServer/startupStatus/updated').map((n) => [n.name, n.status])).toEqual([
      ['everything', 'starting'],
      ['everything', 'ready'],
    ]);

    h.fake.enqueue(callTool('everything__echo', { message: 'hi there' }, 'c1'), callTool('everything__get-sum', { a: 2, b: 40 }, 'c2'), {
      text: 'done',
    });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('use the tools')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');

    const first = h.fake.requests[0]!.body;
    expect(toolNames(first)).toEqual(expect.arrayContaining(['exec_command', 'everything__echo', 'everything__get-sum']));
    const echoSpec = first.tools.find((t: { name: string }) => t.name === 'everything__echo');
    expect(echoSpec).toMatchObject({
      type: 'function',
      strict: false,
      description: status.tools.echo!.description,
      parameters: { type: 'object', required: ['message'] },
    });

    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual(['Echo: hi there']);
    expect(functionOutputs(h.fake.requests[2]!.body)[1]).toContain('42');

    const started = mcpItems(h, 'item/started');
    expect(started.map((i) => [i.server, i.tool, i.status])).toEqual([
      ['everything', 'echo', 'inProgress'],
      ['everything', 'get-sum', 'inProgress'],
    ]);
    const [echo, sum] = mcpItems(h, 'item/completed');
    expect(echo).toMatchObject({
      server: 'everything',
      tool: 'echo',
      status: 'completed',
      arguments: { message: 'hi there' },
      error: null,
    });
    expect(echo!.result).toEqual({ content: [{ type: 'text', text: 'Echo: hi there' }], structuredContent: null });
    expect(typeof echo!.durationMs).toBe('number');
    expect(sum).toMatchObject({ tool: 'get-sum', status: 'completed', arguments: { a: 2, b: 40 } });
  });

  it('an image result reaches the model as a note; an @server:uri mention reads the resource into the conversation', async () => {
    h = await startMcpHarness({ everything: everythingServer() });
    const status = await waitForServer(h, 'everything', 'ready');
    const resource = status.resources.find((r) => r.mimeType?.startsWith('text/'))!;
    h.fake.enqueue(callTool('everything__get-tiny-image', {}), { text: 'seen' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text(`look at @everything:${resource.uri} please`)] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    const texts = inputTexts(h.fake.requests[0]!.body);
    expect(texts[0]).toBe(`look at @everything:${resource.uri} please`);
    expect(texts[1]).toMatch(
      new RegExp(`^<resource server="everything" uri="${resource.uri.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">\\n[\\s\\S]+\\n</resource>$`),
    );
    expect(texts[1]!.length).toBeGreaterThan(100);
    const [output] = functionOutputs(h.fake.requests[1]!.body);
    expect(output).toMatch(/\[image: image\/png, \d+ bytes\]/);
    const item = mcpItems(h, 'item/completed')[0]!;
    expect(item.result!.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]));
  });

  it('a resource that cannot be read is a warning and the turn goes on', async () => {
    h = await startMcpHarness({ everything: everythingServer() });
    await waitForServer(h, 'everything', 'ready');
    await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [text('see @everything:demo://resource/static/document/no-such-file.md')],
    });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(h.log.of('warning').map((w) => w.message)).toEqual([
      expect.stringMatching(/^Could not read demo:\/\/resource\/static\/document\/no-such-file\.md from MCP server "everything": /),
    ]);
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual(['see @everything:demo://resource/static/document/no-such-file.md']);
  });
});

describe('the filesystem server', () => {
  it('read_file and list_directory through calls the model makes; the results are in the next request', async () => {
    const dir = tempDir('tiller-mcp-fs-');
    writeFileSync(join(dir, 'notes.txt'), 'the secret word is tiller\n');
    mkdirSync(join(dir, 'sub'));
    h = await startMcpHarness({ fs: filesystemServer(dir) });
    await waitForServer(h, 'fs', 'ready');
    h.fake.enqueue(callTool('fs__read_file', { path: join(dir, 'notes.txt') }, 'c1'), callTool('fs__list_directory', { path: dir }, 'c2'), {
      text: 'done',
    });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('read my notes')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(toolNames(h.fake.requests[0]!.body)).toEqual(expect.arrayContaining(['fs__read_file', 'fs__list_directory', 'fs__write_file']));
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual([expect.stringContaining('the secret word is tiller')]);
    const listing = functionOutputs(h.fake.requests[2]!.body)[1]!;
    expect(listing).toContain('[FILE] notes.txt');
    expect(listing).toContain('[DIR] sub');
  });

  it('enabled_tools and disabled_tools decide which tools are offered', async () => {
    const dir = tempDir('tiller-mcp-fs-');
    h = await startMcpHarness({
      ro: filesystemServer(dir, { enabled_tools: ['read_file', 'list_directory', 'write_file'], disabled_tools: ['write_file'] }),
    });
    const status = await waitForServer(h, 'ro', 'ready');
    expect(Object.keys(status.tools).sort()).toEqual(['list_directory', 'read_file']);
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('hi')] });
    await h.log.waitFor('turn/completed');
    expect(toolNames(h.fake.requests[0]!.body)).toEqual([...OFFERED, 'ro__list_directory', 'ro__read_file']);
  });
});
