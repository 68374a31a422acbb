/**
 * MCP in the chat controller against the fake app server: mcpToolCall items become live rows and
 * transcript cells, `tiller/mcpServerStarting` shows the waiting line until the server settles or
 * the turn goes on, `/mcp` lists mcpServerStatus/list, MCP approvals get their own prompt, and the
 * `@` popup offers `mcp://NAME` for the configured servers.
 */
import { describe, expect, it } from 'vitest';
import type { McpServerStatus, ThreadItem } from '../../../../src/protocol/api.js';
import { MCP_NO_SERVERS_HINT, MCP_NO_SERVERS_MESSAGE, mcpResultSummary } from '../../../../src/tui/chat/commands/mcp.js';
import { TYPING_GAP_MS } from '../../../../src/tui/chat/approvals/typing-run.js';
import { popupRows } from '../../../../src/tui/composer/selectors.js';
import { cellLines } from '../../../../src/tui/components/lines.js';
import { liveMcpLines } from '../../../../src/tui/components/mcp-lines.js';
import { approvalLines } from '../../../../src/tui/components/modal-lines.js';
import { Chalk } from 'chalk';
import { createHarness, running, type Harness } from '../harness.js';

const plain = new Chalk({ level: 0 });
type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;

const base = { threadId: 'thread-1', turnId: 'turn-1' };
const mcpItem = (over: Partial<McpItem> = {}): McpItem => ({
  type: 'mcpToolCall',
  id: 'mcp-1',
  server: 'everything',
  tool: 'echo',
  status: 'inProgress',
  arguments: { message: 'hi' },
  result: null,
  error: null,
  durationMs: null,
  ...over,
});
const started = (h: Harness, item: McpItem): void => h.client.emit('item/started', { ...base, startedAtMs: 0, item });
const completed = (h: Harness, item: McpItem): void => h.client.emit('item/completed', { ...base, completedAtMs: 0, item });

const status = (over: Partial<McpServerStatus> & { name: string }): McpServerStatus => ({
  status: 'ready',
  tools: {},
  resources: [],
  resourceTemplates: [],
  authStatus: 'unsupported',
  startupError: null,
  ...over,
});
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('MCP tool calls in the transcript', () => {
  it('a call in progress is a live row; its completion becomes a cell with the text result', async () => {
    const h = await createHarness();
    await running(h);
    started(h, mcpItem());
    expect(h.store.getState().live.mcpCalls).toEqual([
      { itemId: 'mcp-1', server: 'everything', tool: 'echo', arguments: '{"message":"hi"}' },
    ]);
    expect(liveMcpLines(h.store.getState().live, 80, plain)).toEqual(['', '⋯ Calling everything.echo({"message":"hi"})…']);
    completed(
      h,
      mcpItem({ status: 'completed', result: { content: [{ type: 'text', text: 'Echo: hi' }], structuredContent: null }, durationMs: 7 }),
    );
    expect(h.store.getState().live.mcpCalls).toEqual([]);
    expect(h.cellTexts().at(-1)).toBe('mcp everything.echo({"message":"hi"}) [completed] Echo: hi');
    const cell = h.store.getState().cells.at(-1)!;
    expect(cellLines(cell, 80, plain)).toEqual(['', '✓ Called everything.echo({"message":"hi"}) · 7ms', '  └ Echo: hi']);
  });

  it('progress reported for a running call shows under its live row', async () => {
    const h = await createHarness();
    await running(h);
    started(h, mcpItem({ id: 'slow', tool: 'longRunningOperation', arguments: { duration: 5, steps: 5 } }));
    h.client.emit('item/mcpToolCall/progress', { ...base, itemId: 'slow', message: 'step 2 of 5' });
    h.client.emit('item/mcpToolCall/progress', { ...base, itemId: 'other', message: 'not ours' });
    expect(liveMcpLines(h.store.getState().live, 80, plain)).toEqual([
      '',
      '⋯ Calling everything.longRunningOperation({"duration":5,"steps":5})…',
      '  └ step 2 of 5',
    ]);
  });

  it('an error, or an isError result (failed, result kept), shows as the error', async () => {
    const h = await createHarness();
    await running(h);
    completed(h, mcpItem({ status: 'failed', error: { message: 'tool call timed out after 60 s' }, durationMs: 60_000 }));
    completed(
      h,
      mcpItem({
        id: 'mcp-2',
        status: 'failed',
        result: { content: [{ type: 'text', text: 'no such file' }], structuredContent: null },
        durationMs: 3,
      }),
    );
    expect(h.cellTexts().slice(-2)).toEqual([
      'mcp everything.echo({"message":"hi"}) [failed] error: tool call timed out after 60 s',
      'mcp everything.echo({"message":"hi"}) [failed] error: no such file',
    ]);
  });

  it('a cell keeps at most 1000 characters of the arguments (one row shows them)', async () => {
    const h = await createHarness();
    await running(h);
    completed(
      h,
      mcpItem({
        tool: 'write_file',
        status: 'completed',
        arguments: { content: 'y'.repeat(50_000) },
        result: { content: [], structuredContent: null },
      }),
    );
    const cell = h.store.getState().cells.at(-1)!;
    expect(cell.kind === 'mcp' && cell.arguments.length).toBe(1001);
    expect(cell.kind === 'mcp' && cell.arguments.endsWith('…')).toBe(true);
  });

  it('content that is not text is counted; structured content alone is shown as JSON', () => {
    const done = { status: 'completed' as const, error: null };
    expect(
      mcpResultSummary({
        ...done,
        result: {
          content: [{ type: 'image', data: '', mimeType: 'image/png' }, { type: 'image' }, { type: 'resource' }],
          structuredContent: null,
        },
      }),
    ).toEqual({
      kind: 'items',
      count: 3,
      types: ['image', 'resource'],
    });
    expect(mcpResultSummary({ ...done, result: { content: [], structuredContent: { sum: 5 } } })).toEqual({
      kind: 'text',
      text: '{"sum":5}',
    });
    expect(
      mcpResultSummary({
        ...done,
        result: { content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }], structuredContent: null },
      }),
    ).toEqual({
      kind: 'text',
      text: 'a\nb',
      others: { count: 1, types: ['image'] },
    });
    expect(mcpResultSummary({ ...done, result: null })).toEqual({ kind: 'items', count: 0, types: [] });
  });

  it('a call still running when its turn is interrupted becomes an interrupted cell', async () => {
    const h = await createHarness();
    await running(h);
    started(h, mcpItem());
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.cellTexts()).toContain('mcp everything.echo({"message":"hi"}) [interrupted]');
    expect(h.store.getState().live.mcpCalls).toBeUndefined();
  });

  it('an error message quoting a secret-looking token is redacted like error cells', async () => {
    const h = await createHarness();
    await running(h);
    completed(h, mcpItem({ status: 'failed', error: { message: 'bad key sk-abcdefghijklmnopqrstuvwxyz012345' } }));
    expect(h.cellTexts().at(-1)).not.toContain('sk-abcdefghijklmnopqrstuvwxyz012345');
  });
});

describe('waiting for a required MCP server', () => {
  it('shows `starting MCP server NAME… (esc to give up)` until the server is ready', async () => {
    const h = await createHarness();
    await running(h, 'use mcp://docs');
    h.client.emit('tiller/mcpServerStarting', { ...base, server: 'docs' });
    h.client.emit('tiller/mcpServerStarting', { ...base, server: 'docs' });
    expect(liveMcpLines(h.store.getState().live, 80, plain)).toEqual(['', '⋯ starting MCP server docs… (esc to give up)']);
    h.client.emit('mcpServer/startupStatus/updated', { threadId: null, name: 'other', status: 'ready', error: null });
    expect(h.store.getState().live.mcpStarting).toEqual(['docs']);
    h.client.emit('mcpServer/startupStatus/updated', { threadId: 'thread-1', name: 'docs', status: 'ready', error: null });
    expect(liveMcpLines(h.store.getState().live, 80, plain)).toEqual([]);
  });

  it('a failed server ends the wait too (its warning is a cell)', async () => {
    const h = await createHarness();
    await running(h, 'use mcp://docs');
    h.client.emit('tiller/mcpServerStarting', { ...base, server: 'docs' });
    h.client.emit('mcpServer/startupStatus/updated', { threadId: 'thread-1', name: 'docs', status: 'failed', error: 'spawn docs ENOENT' });
    h.client.emit('warning', { threadId: 'thread-1', turnId: '', message: "MCP server 'docs' failed to start: spawn docs ENOENT" });
    expect(h.store.getState().live.mcpStarting).toEqual([]);
    expect(h.cellTexts().at(-1)).toBe("⚠ MCP server 'docs' failed to start: spawn docs ENOENT");
  });

  it('the line goes once the turn goes on (output) or ends; Esc interrupts the waiting turn', async () => {
    const h = await createHarness();
    await running(h, 'use mcp://docs');
    h.client.emit('tiller/mcpServerStarting', { ...base, server: 'docs' });
    h.client.emit('item/agentMessage/delta', { ...base, itemId: 'm1', delta: 'Hello' });
    expect(h.store.getState().live.mcpStarting).toEqual([]);
    h.client.emit('tiller/mcpServerStarting', { ...base, server: 'slow' });
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(liveMcpLines(h.store.getState().live, 80, plain)).toEqual([]);
  });

  it('a notice for another thread is not shown', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('tiller/mcpServerStarting', { threadId: 'thread-9', turnId: 'turn-9', server: 'docs' });
    expect(h.store.getState().live.mcpStarting).toBeUndefined();
  });
});

describe('/mcp', () => {
  const submit = async (h: Harness, text: string): Promise<void> => {
    h.type(text);
    h.press('enter');
    await h.settle();
  };

  it('lists each server with its state and tools from mcpServerStatus/list (every page)', async () => {
    const h = await createHarness();
    h.client.once('mcpServerStatus/list', () => ({
      data: [
        status({ name: 'everything', tools: { echo: tool('echo'), add: tool('add') } }),
        status({ name: 'docs', status: 'failed', error: 'spawn docs-server ENOENT', startupError: 'spawn docs-server ENOENT' }),
      ],
      nextCursor: '2',
    }));
    h.client.once('mcpServerStatus/list', () => ({
      data: [status({ name: 'slow', status: 'starting' }), status({ name: 'off', status: 'disabled' })],
      nextCursor: null,
    }));
    await submit(h, '/mcp');
    expect(h.client.requestsOf('mcpServerStatus/list')).toEqual([{}, { cursor: '2' }]);
    const cell = h.store.getState().cells.at(-1)!;
    expect(cellLines(cell, 60, plain)).toEqual([
      '',
      '• MCP servers',
      '  everything  ready · 2 tools',
      '              add, echo',
      '  docs        failed: spawn docs-server ENOENT',
      '  slow        starting…',
      '  off         disabled',
    ]);
    expect(h.composerText()).toBe('');
  });

  it('says how to add one when none is configured (the fake’s default answer)', async () => {
    const h = await createHarness();
    await submit(h, '/mcp');
    expect(h.cellTexts().at(-1)).toBe(`• ${MCP_NO_SERVERS_MESSAGE} (${MCP_NO_SERVERS_HINT})`);
  });

  it('a failed request is an error cell; /mcp also works while a turn runs', async () => {
    const h = await createHarness();
    await running(h);
    h.client.once('mcpServerStatus/list', () => Promise.reject(new Error('app server gone')));
    await submit(h, '/mcp');
    expect(h.cellTexts().at(-1)).toBe('■ Could not list the MCP servers: app server gone');
    expect(h.client.requestsOf('turn/steer')).toEqual([]);
  });
});

describe('an MCP tool call asking for approval', () => {
  it('gets a prompt naming the tool, without the shell `$` or a directory; y accepts', async () => {
    const h = await createHarness();
    await running(h);
    const answer = h.client.serverRequest('item/commandExecution/requestApproval', {
      ...base,
      itemId: 'mcp-1',
      startedAtMs: 0,
      commandActions: [],
      command: 'everything.echo({"message":"hi"})',
      cwd: '/work',
      reason: null,
      tillerMcpToolCall: { server: 'everything', tool: 'echo', arguments: { message: 'hi' } },
    });
    const modal = h.store.getState().modal!;
    expect(modal.mcp).toEqual({ server: 'everything', tool: 'echo' });
    const rows = approvalLines(modal, 80, plain);
    expect(rows.slice(0, 3)).toEqual(['Would you like to let the model call everything.echo?', '', '  everything.echo({"message":"hi"})']);
    expect(rows.join('\n')).not.toContain('/work');
    expect(rows).toContain("  a  Yes, and don't ask again for this tool in this session");
    // A lone `y`, typed apart from any typing run (typing-run.ts).
    h.clock.advance(TYPING_GAP_MS);
    h.type('y');
    h.clock.advance(TYPING_GAP_MS);
    await expect(answer).resolves.toEqual({ decision: 'accept' });
    expect(h.store.getState().modal).toBeNull();
  });
});

describe('the `@` popup offers the configured MCP servers', () => {
  const config = {
    mcpServers: {
      everything: { command: 'mcp-server-everything' },
      docs: { url: 'http://127.0.0.1:9/mcp' },
      off: { command: 'x', enabled: false },
    },
  };

  it('`@` lists `mcp://NAME` for each enabled server before the files', async () => {
    const h = await createHarness({ config, searchFiles: async () => ['README.md', 'src/a.ts'] });
    h.type('@');
    await h.settle();
    expect(popupRows(h.store.getState().composer)?.rows.map((r) => r.label)).toEqual([
      'mcp://docs',
      'mcp://everything',
      'README.md',
      'src/a.ts',
    ]);
  });

  it('the typed query filters them; choosing one inserts `mcp://NAME ` as text', async () => {
    const h = await createHarness({ config, searchFiles: async (q) => (q === 'ev' ? ['events.md'] : []) });
    h.type('look at @ev');
    await h.settle();
    expect(popupRows(h.store.getState().composer)?.rows.map((r) => r.label)).toEqual(['mcp://everything', 'events.md']);
    h.press('enter');
    expect(h.composerText()).toBe('look at mcp://everything ');
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')[0]!.input).toEqual([{ type: 'text', text: 'look at mcp://everything', text_elements: [] }]);
  });

  it('a server whose name only contains the query comes after the files', async () => {
    const h = await createHarness({ config, searchFiles: async () => ['thing.md'] });
    h.type('@thing');
    await h.settle();
    expect(popupRows(h.store.getState().composer)?.rows.map((r) => r.label)).toEqual(['thing.md', 'mcp://everything']);
  });

  it('`@mcp://d` narrows to the servers it starts; without servers only files are offered', async () => {
    const h = await createHarness({ config, searchFiles: async () => [] });
    h.type('@mcp://d');
    await h.settle();
    expect(popupRows(h.store.getState().composer)?.rows.map((r) => r.label)).toEqual(['mcp://docs']);
    const none = await createHarness({ searchFiles: async () => ['README.md'] });
    none.type('@');
    await none.settle();
    expect(popupRows(none.store.getState().composer)?.rows.map((r) => r.label)).toEqual(['README.md']);
  });
});
