/** The MCP pieces without servers: the `[mcp_servers]` check, tool names, result formatting, mentions. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { checkConfigFile } from '../../src/runtime/config-check.js';
import { loadConfig } from '../../src/runtime/config.js';
import { checkMcpServers, resolveMcpServer } from '../../src/runtime/mcp/config.js';
import { callSummary, formatResultForModel, ITEM_BINARY_LIMIT, resultForItem } from '../../src/runtime/mcp/format.js';
import { McpManager } from '../../src/runtime/mcp/manager.js';
import { isValidToolName, qualifyToolNames, sanitizedToolName, toolKey } from '../../src/runtime/mcp/names.js';
import { resourceMentions } from '../../src/runtime/context/input-scan.js';
import { resourceText } from '../../src/runtime/mcp/turn.js';
import { parseMcpArguments } from '../../src/runtime/tools/mcp/call.js';
import { testConfig } from './support/config.js';

describe('[mcp_servers] in config.toml', () => {
  it('keeps good stdio and HTTP entries as written', () => {
    const warnings: string[] = [];
    const servers = checkMcpServers(
      {
        docs: {
          command: 'docs-server',
          args: ['--stdio'],
          env: { A: 'b' },
          env_vars: ['TOKEN'],
          cwd: '/srv',
          enabled: false,
          trusted: true,
        },
        web: {
          url: 'https://example.test/mcp',
          bearer_token_env_var: 'WEB_TOKEN',
          startup_timeout_sec: 2.5,
          tool_timeout_sec: 30,
          enabled_tools: ['a'],
          disabled_tools: ['b'],
        },
      },
      warnings,
    );
    expect(warnings).toEqual([]);
    expect(servers).toEqual({
      docs: { command: 'docs-server', args: ['--stdio'], env: { A: 'b' }, env_vars: ['TOKEN'], cwd: '/srv', enabled: false, trusted: true },
      web: {
        url: 'https://example.test/mcp',
        bearer_token_env_var: 'WEB_TOKEN',
        startup_timeout_sec: 2.5,
        tool_timeout_sec: 30,
        enabled_tools: ['a'],
        disabled_tools: ['b'],
      },
    });
  });

  it('warns about and leaves out each entry it cannot use; an unknown key only warns', () => {
    const warnings: string[] = [];
    const servers = checkMcpServers(
      {
        none: {},
        both: { command: 'x', url: 'http://127.0.0.1:1/mcp' },
        badArgs: { command: 'x', args: 'not-a-list' },
        badTimeout: { command: 'x', startup_timeout_sec: 0 },
        ws: { url: 'ws://127.0.0.1:1' },
        mixed: { command: 'x', bearer_token_env_var: 'T' },
        'bad name': { command: 'x' },
        scalar: 3,
        extra: { command: 'x', oauth: { id: 1 } },
      },
      warnings,
    );
    expect(Object.keys(servers)).toEqual(['extra']);
    expect(warnings).toEqual([
      'config.toml: mcp_servers.none: expected `command` (stdio) or `url` (streamable HTTP) (server ignored)',
      'config.toml: mcp_servers.both: give either `command` (stdio) or `url` (streamable HTTP), not both (server ignored)',
      'config.toml: mcp_servers.badArgs: args: expected a list of strings (server ignored)',
      'config.toml: mcp_servers.badTimeout: startup_timeout_sec: expected a positive number of seconds (server ignored)',
      'config.toml: mcp_servers.ws: url: expected an http(s) URL (server ignored)',
      'config.toml: mcp_servers.mixed: bearer_token_env_var does not apply to a stdio server (server ignored)',
      'config.toml: mcp_servers.bad name: a server name may hold only letters, digits, `_`, `-` and `.`, and starts with a letter or digit (server ignored)',
      'config.toml: mcp_servers.scalar: expected a table (server ignored)',
      'config.toml: unknown key mcp_servers.extra.oauth (ignored)',
    ]);
  });

  it('is read through checkConfigFile and loadConfig, and profiles still cannot hold it', () => {
    expect(checkConfigFile({ mcp_servers: { a: { command: 'x', args: [1] } } })).toEqual({
      file: { mcp_servers: {} },
      warnings: ['config.toml: mcp_servers.a: args: expected a list of strings (server ignored)'],
      error: null,
    });
    const home = mkdtempSync(join(tmpdir(), 'tiller-mcp-config-'));
    writeFileSync(
      join(home, 'config.toml'),
      '[mcp_servers.fs]\ncommand = "mcp-server-filesystem"\nargs = ["/tmp"]\ntrusted = true\n[mcp_servers.bad]\nurl = 3\n',
    );
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.mcpServers).toEqual({ fs: { command: 'mcp-server-filesystem', args: ['/tmp'], trusted: true } });
    expect(config.warnings).toEqual(['config.toml: mcp_servers.bad: url: expected an http(s) URL (server ignored)']);
    expect(checkConfigFile({ profiles: { p: { mcp_servers: {} } } }).warnings).toEqual([
      'config.toml: unknown key profiles.p.mcp_servers (ignored)',
    ]);
  });

  it('resolves the defaults: enabled, 10 s start-up, 60 s per call, not trusted', () => {
    expect(resolveMcpServer('s', { command: 'x' })).toMatchObject({
      name: 's',
      transport: 'stdio',
      enabled: true,
      startupTimeoutMs: 10_000,
      toolTimeoutMs: 60_000,
      trusted: false,
      enabledTools: null,
      args: [],
      env: {},
      cwd: null,
    });
    expect(resolveMcpServer('w', { url: 'http://127.0.0.1:1/mcp', startup_timeout_sec: 0.25 })).toMatchObject({
      transport: 'streamableHttp',
      startupTimeoutMs: 250,
      bearerTokenEnvVar: null,
    });
  });
});

describe('tool names', () => {
  it('server__tool, with characters outside the API rule made _', () => {
    expect(sanitizedToolName('docs', 'search')).toBe('docs__search');
    expect(sanitizedToolName('my.server', 'get thing/now')).toBe('my_server__get_thing_now');
  });

  it('a name over 64 characters is cut and ends with a hash of the whole name, so two long names stay apart', () => {
    const a = sanitizedToolName('server', `${'x'.repeat(80)}a`);
    const b = sanitizedToolName('server', `${'x'.repeat(80)}b`);
    expect(a).toHaveLength(64);
    expect(isValidToolName(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('collisions get _2, _3 in a fixed order whatever order the servers came in; shell is never given out', () => {
    const tools = [
      { server: 'a_b', tool: 'x' },
      { server: 'a.b', tool: 'x' },
      { server: 'a-b', tool: 'y' },
      { server: 'sh', tool: 'ell' },
    ];
    const one = qualifyToolNames(tools, ['shell', 'a_b__x']);
    const two = qualifyToolNames([...tools].reverse(), ['shell', 'a_b__x']);
    expect([...one.entries()].sort()).toEqual([...two.entries()].sort());
    expect(one.get(toolKey('a.b', 'x'))).toBe('a_b__x_2');
    expect(one.get(toolKey('a_b', 'x'))).toBe('a_b__x_3');
    expect(one.get(toolKey('a-b', 'y'))).toBe('a-b__y');
    for (const name of one.values()) expect(isValidToolName(name)).toBe(true);
  });
});

describe('results for the model and the item', () => {
  it('text as it is, binary content as notes, structured content as JSON unless a text block already says it', () => {
    expect(formatResultForModel({ content: [{ type: 'text', text: 'hello' }] })).toBe('hello');
    expect(
      formatResultForModel({
        content: [
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///x', name: 'x' },
          { type: 'resource', resource: { uri: 'file:///t', text: 'inline' } },
          { type: 'resource', resource: { uri: 'file:///b', blob: 'AAAA', mimeType: 'application/pdf' } },
        ],
        structuredContent: { n: 1 },
      }),
    ).toBe(
      '[image: image/png, 3 bytes]\n[audio: audio/wav, 4 bytes]\n[resource link: x <file:///x>]\n<resource uri="file:///t">\ninline\n</resource>\n[resource: application/pdf, 3 bytes, file:///b]\nstructured content: {"n":1}',
    );
    expect(formatResultForModel({ content: [{ type: 'text', text: '{ "n": 1 }' }], structuredContent: { n: 1 } })).toBe('{ "n": 1 }');
    expect(formatResultForModel({ content: [] })).toBe('(no content)');
    expect(formatResultForModel({ isError: true, content: [{ type: 'text', text: 'bad' }] })).toBe('MCP tool error:\nbad');
    expect(formatResultForModel({ toolResult: { old: true } })).toBe('{"old":true}');
  });

  it('caps what the model reads and what the item keeps', () => {
    const big = 'y'.repeat(100_000);
    expect(formatResultForModel({ content: [{ type: 'text', text: big }] }, 100, 100)).toMatch(
      /^y{100}\n\[… 99800 bytes omitted …\]\ny{100}$/,
    );
    const data = 'A'.repeat(ITEM_BINARY_LIMIT + 4);
    const item = resultForItem({
      content: [
        { type: 'text', text: big },
        { type: 'image', data, mimeType: 'image/png' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    });
    expect((item.content[0] as { text: string }).text.length).toBeLessThan(25 * 1024);
    expect(item.content[1]).toEqual({ type: 'image', data: '', mimeType: 'image/png', tillerOmittedBytes: (ITEM_BINARY_LIMIT + 4) * 0.75 });
    expect(item.content[2]).toEqual({ type: 'image', data: 'AAAA', mimeType: 'image/png' });
    expect(item.structuredContent).toBeNull();
  });

  it('the approval summary reads server.tool(args), long arguments cut', () => {
    expect(callSummary('fs', 'read_file', { path: '/x' })).toBe('fs.read_file({"path":"/x"})');
    expect(callSummary('fs', 'list', {})).toBe('fs.list()');
    expect(callSummary('fs', 'w', { t: 'z'.repeat(1000) })).toMatch(/^fs\.w\(\{"t":"z+…\)$/);
  });

  it('arguments must be a JSON object (empty is none)', () => {
    expect(parseMcpArguments('')).toEqual({ args: {} });
    expect(parseMcpArguments('{"a":1}')).toEqual({ args: { a: 1 } });
    expect(parseMcpArguments('[1]')).toEqual({ error: 'failed to parse function arguments: expected a JSON object' });
    expect(parseMcpArguments('{')).toEqual({ error: 'failed to parse function arguments: not JSON' });
  });
});

describe('@server:uri mentions', () => {
  const text = (t: string) => ({ type: 'text' as const, text: t, text_elements: [] });

  it('finds mentions of configured servers only, each once, without trailing punctuation', () => {
    const servers = new Set(['docs', 'fs']);
    expect(
      resourceMentions(
        [
          text('read @docs:file:///guide.md, then (@fs:file:///tmp/a.txt). Not me@docs:file:///x or @other:file:///y'),
          text('again @docs:file:///guide.md'),
        ],
        servers,
      ),
    ).toEqual([
      { server: 'docs', uri: 'file:///guide.md' },
      { server: 'fs', uri: 'file:///tmp/a.txt' },
    ]);
    expect(resourceMentions([text('@docs:nota-uri @docs:src/file.ts:12')], servers)).toEqual([]);
  });

  it('puts the contents in a resource tag; binary parts as notes', () => {
    expect(
      resourceText('docs', 'x://a', [
        { uri: 'x://a', text: 'hello' },
        { uri: 'x://a#b', blob: 'AAAA', mimeType: 'image/png' },
      ]),
    ).toBe('<resource server="docs" uri="x://a">\nhello\n[binary content: image/png, 3 bytes, x://a#b]\n</resource>');
  });
});

describe('the manager without servers', () => {
  it('offers no tools, lists nothing, and reports a mention as not configured', async () => {
    const manager = new McpManager({}, { cwd: tmpdir() });
    expect(manager.configured).toBe(false);
    expect(manager.toolTable().specs).toEqual([]);
    expect(manager.status()).toEqual([]);
    expect(await manager.ensureReady('docs', new AbortController().signal)).toEqual({
      ok: false,
      reason: 'is not configured (no [mcp_servers.docs] in config.toml)',
    });
    await manager.close();
  });
});

describe('over the stdio JSON-RPC connection', () => {
  it('mcpServerStatus/list and mcpServer/refresh are served', async () => {
    const server = createInProcessAppServer({
      config: testConfig({ mcpServers: { off: { command: 'x', enabled: false } } }),
      cwd: tmpdir(),
    });
    const out: Array<{ id?: unknown; result?: unknown; error?: unknown }> = [];
    const connection = new JsonRpcConnection(server, { write: (message) => void out.push(message as (typeof out)[number]) });
    connection.handleLine(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } }));
    connection.handleLine(JSON.stringify({ id: 2, method: 'mcpServerStatus/list' }));
    connection.handleLine(JSON.stringify({ id: 3, method: 'mcpServer/refresh', params: {} }));
    await connection.close();
    expect(out.find((m) => m.id === 2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {
        data: [
          {
            name: 'off',
            status: 'disabled',
            tools: {},
            resources: [],
            resourceTemplates: [],
            authStatus: 'unsupported',
            startupError: null,
          },
        ],
        nextCursor: null,
      },
    });
    expect(out.find((m) => m.id === 3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });
});
