/**
 * MCP on screen, as pure rows: a tool call's cell (status mark, `server.tool(args)` cut to fit, the
 * result summary, the duration), the live rows (a call in progress, the wait for a server) and
 * `/mcp`'s server list.
 */
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { cellLines } from '../../../src/tui/components/lines.js';
import { liveMcpLines, MCP_RESULT_ROWS } from '../../../src/tui/components/mcp-lines.js';
import { formatMcpDuration, type McpServerRow } from '../../../src/tui/chat/commands/mcp.js';
import type { TranscriptCell } from '../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });
const color = new Chalk({ level: 1 });

type McpCell = Extract<TranscriptCell, { kind: 'mcp' }>;
const call = (over: Partial<McpCell> = {}): McpCell => ({
  kind: 'mcp',
  id: 1,
  server: 'everything',
  tool: 'echo',
  arguments: '{"message":"hi"}',
  status: 'completed',
  result: { kind: 'text', text: 'Echo: hi' },
  durationMs: 12,
  ...over,
});

describe('an MCP tool call cell', () => {
  it('shows a green mark, server.tool(args), the duration and the text result', () => {
    expect(cellLines(call(), 60, plain)).toEqual(['', '✓ Called everything.echo({"message":"hi"}) · 12ms', '  └ Echo: hi']);
    const rows = cellLines(call(), 60, color);
    expect(rows[1]!.startsWith(color.green('✓'))).toBe(true);
    expect(rows[2]).toBe(color.dim('  └ Echo: hi'));
  });

  it('cuts the arguments (not the name) to keep the call on one row', () => {
    const args = JSON.stringify({ path: '/a/very/long/path/that/goes/on/and/on/for/ever.txt', mode: 'read' });
    const rows = cellLines(call({ arguments: args, durationMs: 1500 }), 50, plain);
    expect(rows[1]).toBe('✓ Called everything.echo({"path":"/a/very…) · 1.5s');
    expect(stringWidth(rows[1]!)).toBe(50);
    // Too narrow even for the name: the row itself is cut.
    const narrow = cellLines(call({ server: 'a-really-long-server-name', durationMs: null }), 24, plain)[1]!;
    expect(narrow).toBe('✓ Called a-really-long-…');
    expect(stringWidth(narrow)).toBe(24);
  });

  it('shows the first rows of a long text result, then how many more', () => {
    const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const rows = cellLines(call({ result: { kind: 'text', text } }), 40, plain);
    expect(rows.slice(2)).toEqual(['  └ line 1', '    line 2', '    line 3', '    line 4', `    … ${10 - MCP_RESULT_ROWS} more lines`]);
    // A very long result: only its first lines are wrapped, the rest counted.
    const huge = cellLines(call({ result: { kind: 'text', text: 'x\n'.repeat(100_000) } }), 40, plain);
    expect(huge.slice(-1)).toEqual([`    … ${100_000 - MCP_RESULT_ROWS} more lines`]);
    // One row over the limit is shown rather than counted.
    const five = Array.from({ length: MCP_RESULT_ROWS + 1 }, (_, i) => `r${i}`).join('\n');
    expect(cellLines(call({ result: { kind: 'text', text: five } }), 40, plain)).toHaveLength(2 + MCP_RESULT_ROWS + 1);
  });

  it('counts content that is not text: `N items` with their types', () => {
    expect(cellLines(call({ result: { kind: 'items', count: 2, types: ['image', 'resource'] } }), 60, plain)[2]).toBe(
      '  └ 2 items (image, resource)',
    );
    expect(cellLines(call({ result: { kind: 'items', count: 1, types: ['image'] } }), 60, plain)[2]).toBe('  └ 1 item (image)');
    expect(cellLines(call({ result: { kind: 'items', count: 0, types: [] } }), 60, plain)[2]).toBe('  └ no content');
    // Beside text, they are counted under it.
    const mixed = call({ result: { kind: 'text', text: "Here's the image you requested:", others: { count: 1, types: ['image'] } } });
    expect(cellLines(mixed, 60, plain).slice(2)).toEqual(["  └ Here's the image you requested:", '    + 1 more item (image)']);
  });

  it('a failed call has a red mark and its error in red', () => {
    const cell = call({ status: 'failed', result: { kind: 'error', message: 'tool echo timed out after 60s' }, durationMs: 60_000 });
    expect(cellLines(cell, 60, plain)).toEqual([
      '',
      '✗ Called everything.echo({"message":"hi"}) · 1m 00s',
      '  └ tool echo timed out after 60s',
    ]);
    const rows = cellLines(cell, 60, color);
    expect(rows[1]!.startsWith(color.red('✗'))).toBe(true);
    expect(rows[2]).toBe(color.red('  └ tool echo timed out after 60s'));
  });

  it('a call its turn ended under says so, without a duration', () => {
    expect(cellLines(call({ status: 'interrupted', result: null, durationMs: null }), 60, plain)).toEqual([
      '',
      '✗ Called everything.echo({"message":"hi"})',
      '  └ interrupted',
    ]);
  });

  it('keeps control characters from the server off the terminal', () => {
    const rows = cellLines(call({ tool: 'e\x1b[2Jcho', result: { kind: 'text', text: 'a\x1b]0;title\x07b' } }), 60, plain);
    for (const row of rows) expect(row).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  });

  it('formats durations as ms, seconds or minutes', () => {
    expect([
      formatMcpDuration(0),
      formatMcpDuration(999),
      formatMcpDuration(1000),
      formatMcpDuration(59_940),
      formatMcpDuration(125_000),
    ]).toEqual(['0ms', '999ms', '1.0s', '59.9s', '2m 05s']);
  });
});

describe('MCP rows in the live area', () => {
  it('a call in progress is one `Calling server.tool(args)…` row, cut to fit', () => {
    const live = { mcpCalls: [{ itemId: 'm1', server: 'everything', tool: 'echo', arguments: '{"message":"hello there, how are you"}' }] };
    expect(liveMcpLines(live, 80, plain)).toEqual(['', '⋯ Calling everything.echo({"message":"hello there, how are you"})…']);
    const narrow = liveMcpLines(live, 40, plain);
    expect(narrow[1]).toBe('⋯ Calling everything.echo({"message":…)…');
    expect(stringWidth(narrow[1]!)).toBeLessThanOrEqual(40);
  });

  it('while the turn waits for a server: `starting MCP server NAME… (esc to give up)`', () => {
    expect(liveMcpLines({ mcpStarting: ['docs'] }, 80, plain)).toEqual(['', '⋯ starting MCP server docs… (esc to give up)']);
    expect(liveMcpLines({ mcpStarting: ['docs', 'linear'] }, 80, plain)[1]).toBe('⋯ starting MCP servers docs, linear… (esc to give up)');
    // Narrow: it wraps rather than being cut, so the way out stays visible.
    const rows = liveMcpLines({ mcpStarting: ['documentation-server'] }, 30, plain);
    expect(rows.map((row) => row.trim()).join(' ')).toContain('documentation-server… (esc to give up)');
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(30);
  });

  it('nothing when no call runs and no server is awaited', () => {
    expect(liveMcpLines({}, 80, plain)).toEqual([]);
    expect(liveMcpLines({ mcpCalls: [], mcpStarting: [] }, 80, plain)).toEqual([]);
  });
});

describe('/mcp rows', () => {
  const servers: McpServerRow[] = [
    {
      name: 'everything',
      status: 'ready',
      tools: ['echo', 'add', 'printEnv', 'longRunningOperation', 'sampleLLM', 'getTinyImage'],
      error: null,
    },
    { name: 'docs', status: 'failed', tools: [], error: 'spawn docs-server ENOENT' },
    { name: 'slow', status: 'starting', tools: [], error: null },
    { name: 'off', status: 'disabled', tools: [], error: null },
  ];
  const cell: TranscriptCell = { kind: 'mcpServers', id: 9, servers };

  it('lists each server with its state and a ready one’s tool names', () => {
    expect(cellLines(cell, 80, plain)).toEqual([
      '',
      '• MCP servers',
      '  everything  ready · 6 tools',
      '              echo, add, printEnv, longRunningOperation, sampleLLM, getTinyImage',
      '  docs        failed: spawn docs-server ENOENT',
      '  slow        starting…',
      '  off         disabled',
    ]);
    const rows = cellLines(cell, 80, color);
    expect(rows[2]).toContain(color.green('ready'));
    expect(rows[4]).toContain(color.red('failed: spawn docs-server ENOENT'));
  });

  it('cuts the tool names to the width and counts the rest; a long reason wraps under the state', () => {
    const rows = cellLines(cell, 50, plain);
    expect(rows[3]).toBe('              echo, add, printEnv, … +3 more');
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(50);
    const failed = cellLines(
      {
        kind: 'mcpServers',
        id: 1,
        servers: [{ name: 'docs', status: 'failed', tools: [], error: 'the server exited with code 1 before it answered initialize' }],
      },
      40,
      plain,
    );
    expect(failed.slice(2)).toEqual(['  docs  failed: the server exited with', '        code 1 before it answered', '        initialize']);
  });

  it('one tool is `1 tool`; at 20 columns every row still fits', () => {
    expect(
      stripAnsi(
        cellLines({ kind: 'mcpServers', id: 1, servers: [{ name: 'a', status: 'ready', tools: ['t'], error: null }] }, 40, color)[2]!,
      ),
    ).toBe('  a  ready · 1 tool');
    for (const row of cellLines(cell, 20, plain)) expect(stringWidth(row)).toBeLessThanOrEqual(20);
  });
});
