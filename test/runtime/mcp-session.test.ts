/**
 * MCP in the session: approvals, `mcp://` mentions that wait for a server, streamable HTTP with a
 * bearer token, one server process per app server, no processes left after close, exec --json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandApprovalDecision, ServerRequestMap, ThreadItem } from '../../src/protocol/api.js';
import { MCP_DECLINED_OUTPUT } from '../../src/runtime/tools/mcp/call.js';
import { trackedProcessGroups } from '../../src/runtime/commands/process-groups.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { FIXTURE_RESOURCE_TEXT, FIXTURE_RESOURCE_URI, type HttpFixture, startHttpFixture } from '../support/mcp-fixture-server.js';
import type { Harness } from './support/harness.js';
import { conversation, inputTexts, OFFERED, tempDir, text } from './support/harness.js';
import { fakeServerEnv, jsonEvents, ROOT, spawnTiller } from './support/spawn.js';
import {
  callTool,
  everythingServer,
  filesystemServer,
  FIXTURE,
  fixtureServer,
  functionOutputs,
  isAlive,
  startMcpHarness,
  toolNames,
  waitForExit,
  waitForServer,
} from './mcp-helpers.js';

let h: Harness | undefined;
let http: HttpFixture | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await http?.close();
  http = undefined;
});

type ApprovalParams = ServerRequestMap['item/commandExecution/requestApproval']['params'];
type McpItem = Extract<ThreadItem, { type: 'mcpToolCall' }>;
const completedMcp = (harness: Harness): McpItem[] =>
  harness.log.of('item/completed').flatMap((n) => (n.item.type === 'mcpToolCall' ? [n.item] : []));

function answerApprovals(harness: Harness, decide: (params: ApprovalParams) => CommandApprovalDecision): ApprovalParams[] {
  const asked: ApprovalParams[] = [];
  harness.server.setServerRequestHandler(async (req) => {
    const params = req.params as ApprovalParams;
    asked.push(params);
    return { decision: decide(params) };
  });
  return asked;
}

describe('approvals', () => {
  it('on-request asks like a command does; declined, the tool is not called and the model is told', async () => {
    h = await startMcpHarness({ fx: fixtureServer() }, { approvalPolicy: 'on-request' });
    await waitForServer(h, 'fx', 'ready');
    const asked = answerApprovals(h, () => 'decline');
    h.fake.enqueue(callTool('fx__echo', { text: 'hi' }), { text: 'ok' });
    const { turn } = await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(asked).toEqual([
      {
        threadId: h.threadId,
        turnId: turn.id,
        itemId: completedMcp(h)[0]!.id,
        startedAtMs: expect.any(Number),
        command: 'fx.echo({"text":"hi"})',
        commandActions: [{ type: 'unknown', command: 'fx.echo({"text":"hi"})' }],
        cwd: expect.any(String),
        reason: 'MCP tool "echo" of server "fx" (MCP tools run outside the sandbox)',
        tillerMcpToolCall: { server: 'fx', tool: 'echo', arguments: { text: 'hi' } },
      },
    ]);
    expect(completedMcp(h)[0]).toMatchObject({ status: 'failed', error: { message: 'declined by the user' }, result: null });
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual([MCP_DECLINED_OUTPUT]);
  });

  it('acceptForSession covers later calls of that tool only; untrusted asks too; never and trusted servers do not ask', async () => {
    h = await startMcpHarness({ fx: fixtureServer(), tr: fixtureServer([], { trusted: true }) }, { approvalPolicy: 'untrusted' });
    await waitForServer(h, 'fx', 'ready');
    await waitForServer(h, 'tr', 'ready');
    const asked = answerApprovals(h, () => 'acceptForSession');
    h.fake.enqueue(
      callTool('fx__echo', { text: 'one' }, 'c1'),
      callTool('fx__echo', { text: 'two' }, 'c2'),
      callTool('fx__image', {}, 'c3'),
      callTool('tr__echo', { text: 'trusted' }, 'c4'),
      { text: 'done' },
    );
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(asked.map((a) => a.command)).toEqual(['fx.echo({"text":"one"})', 'fx.image()']);
    expect(functionOutputs(h.fake.requests[4]!.body)).toEqual([
      'echo: one',
      'echo: two',
      expect.stringContaining('[image: image/png'),
      'echo: trusted',
    ]);

    await h.close();
    h = await startMcpHarness({ fx: fixtureServer() }, { approvalPolicy: 'never' });
    await waitForServer(h, 'fx', 'ready');
    const none = answerApprovals(h, () => 'decline');
    h.fake.enqueue(callTool('fx__echo', { text: 'free' }), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(none).toEqual([]);
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual(['echo: free']);
  });

  it('cancel at the prompt interrupts the turn', async () => {
    h = await startMcpHarness({ fx: fixtureServer() }, { approvalPolicy: 'on-request' });
    await waitForServer(h, 'fx', 'ready');
    answerApprovals(h, () => 'cancel');
    h.fake.enqueue(callTool('fx__echo', { text: 'hi' }));
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(1);
  });
});

describe('mcp:// mentions', () => {
  it('a mentioned server still starting is awaited before sampling (tiller/mcpServerStarting) and its tools are offered', async () => {
    h = await startMcpHarness({ late: fixtureServer(['--start-delay', '700']) });
    const { data } = await h.server.request('mcpServerStatus/list', {});
    expect(data[0]).toMatchObject({ name: 'late', status: 'starting' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('use mcp://late now')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(h.log.of('tiller/requiredMcpServers')).toEqual([{ threadId: h.threadId, turnId: done.turn.id, servers: ['late'] }]);
    expect(h.log.of('tiller/mcpServerStarting')).toEqual([{ threadId: h.threadId, turnId: done.turn.id, server: 'late' }]);
    const starting = h.log.all.findIndex((n) => n.method === 'tiller/mcpServerStarting');
    const ready = h.log.all.findIndex((n) => n.method === 'mcpServer/startupStatus/updated' && n.params.status === 'ready');
    expect(starting).toBeLessThan(ready);
    expect(toolNames(h.fake.requests[0]!.body)).toContain('late__echo');
  });

  it('a server that is not running (failed earlier) is started again for the turn that mentions it', async () => {
    const marker = join(tempDir(), 'second-start');
    // Fails its first start, succeeds afterwards: the marker file tells the runs apart.
    const script = join(tempDir(), 'once.sh');
    writeFileSync(
      script,
      `if [ -e ${marker} ]; then exec ${process.execPath} --import tsx ${FIXTURE}; fi\ntouch ${marker}\necho 'first start fails' >&2\nexit 1\n`,
    );
    h = await startMcpHarness({ flaky: { command: '/bin/sh', args: [script], cwd: ROOT } });
    await waitForServer(h, 'flaky', 'failed');
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('try mcp://flaky')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(h.log.of('tiller/mcpServerStarting').map((n) => n.server)).toEqual(['flaky']);
    expect(toolNames(h.fake.requests[0]!.body)).toContain('flaky__echo');
  });

  it('mcpServer/refresh starts a failed server again', async () => {
    const marker = join(tempDir(), 'second-start');
    const script = join(tempDir(), 'once.sh');
    writeFileSync(script, `if [ -e ${marker} ]; then exec ${process.execPath} --import tsx ${FIXTURE}; fi\ntouch ${marker}\nexit 1\n`);
    h = await startMcpHarness({ flaky: { command: '/bin/sh', args: [script], cwd: ROOT } });
    await waitForServer(h, 'flaky', 'failed');
    await expect(h.server.request('mcpServer/refresh', { name: 'nope' })).rejects.toThrow('no MCP server named nope');
    expect(await h.server.request('mcpServer/refresh', { name: 'flaky' })).toEqual({});
    const status = await waitForServer(h, 'flaky', 'ready');
    expect(Object.keys(status.tools)).toContain('echo');
    expect(h.log.of('mcpServer/startupStatus/updated').map((n) => n.status)).toEqual(['starting', 'failed', 'starting', 'ready']);
  });

  it('unknown, disabled and failing servers: a warning each and a developer notice; the turn runs', async () => {
    h = await startMcpHarness({ off: fixtureServer([], { enabled: false }), boom: fixtureServer(['--crash-on-start']) });
    await waitForServer(h, 'boom', 'failed');
    const warningsBefore = h.log.of('warning').length;
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('use mcp://ghost and mcp://off and mcp://boom')] });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    const warnings = h.log.of('warning').slice(warningsBefore);
    expect(warnings.map((w) => [w.turnId, w.message])).toEqual([
      [done.turn.id, 'MCP server "ghost" is not configured (no [mcp_servers.ghost] in config.toml)'],
      [done.turn.id, 'MCP server "off" is disabled (enabled = false in config.toml)'],
      [done.turn.id, 'MCP server "boom" failed to start: exited with code 3: fixture: cannot start, no config'],
    ]);
    const developer = (conversation(h.fake.requests[0]!.body) as Array<{ role?: string; content?: Array<{ text: string }> }>)
      .filter((m) => m.role === 'developer')
      .map((m) => m.content![0]!.text);
    expect(developer).toEqual([
      'The MCP server "ghost" the user mentioned is not available: it is not configured (no [mcp_servers.ghost] in config.toml). Its tools cannot be used in this turn.',
      'The MCP server "off" the user mentioned is not available: it is disabled (enabled = false in config.toml). Its tools cannot be used in this turn.',
      'The MCP server "boom" the user mentioned is not available: it failed to start: exited with code 3: fixture: cannot start, no config. Its tools cannot be used in this turn.',
    ]);
    expect(h.log.of('tiller/mcpServerStarting').map((n) => n.server)).toEqual(['boom']);
  });

  it('a mentioned server that fails while the turn waits: one warning (the start-up one) and a notice for the model', async () => {
    h = await startMcpHarness({ late: fixtureServer(['--start-delay', '300', '--crash-on-start']) });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('use mcp://late')] });
    const done = await h.log.waitFor('turn/completed');
    expect(h.log.of('tiller/mcpServerStarting').map((n) => n.server)).toEqual(['late']);
    expect(h.log.of('warning')).toEqual([
      {
        threadId: h.threadId,
        turnId: '',
        message: 'MCP server "late" failed to start: exited with code 3: fixture: cannot start, no config',
      },
    ]);
    expect(done.turn.status).toBe('completed');
    const developer = (conversation(h.fake.requests[0]!.body) as Array<{ role?: string; content?: Array<{ text: string }> }>).filter(
      (m) => m.role === 'developer',
    );
    expect(developer.map((m) => m.content![0]!.text)).toEqual([
      'The MCP server "late" the user mentioned is not available: it failed to start: exited with code 3: fixture: cannot start, no config. Its tools cannot be used in this turn.',
    ]);
  });

  it('an interrupt while the turn waits for a server gives up: nothing is sampled', async () => {
    h = await startMcpHarness({ stuck: fixtureServer(['--hang'], { startup_timeout_sec: 30 }) });
    const { turn } = await h.server.request('turn/start', {
      threadId: h.threadId,
      input: [{ type: 'mention', name: 'stuck', path: 'mcp://stuck' }, text('go')],
    });
    await h.log.waitFor('tiller/mcpServerStarting');
    await h.server.request('turn/interrupt', { threadId: h.threadId, turnId: turn.id });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('interrupted');
    expect(h.fake.requests).toHaveLength(0);
  });

  it('an @server:uri mention of the fixture reads its resource after the prompt', async () => {
    h = await startMcpHarness({ fx: fixtureServer() });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text(`summarize @fx:${FIXTURE_RESOURCE_URI}.`)] });
    await h.log.waitFor('turn/completed');
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual([
      `summarize @fx:${FIXTURE_RESOURCE_URI}.`,
      `<resource server="fx" uri="${FIXTURE_RESOURCE_URI}">\n${FIXTURE_RESOURCE_TEXT}\n</resource>`,
    ]);
    expect(h.log.of('warning')).toEqual([]);
  });
});

describe('streamable HTTP', () => {
  it('connects with the bearer token from bearer_token_env_var and calls a tool; a missing variable or a wrong token fails the server', async () => {
    process.env.TILLER_TEST_MCP_TOKEN = 'token-for-the-fixture-1234';
    process.env.TILLER_TEST_MCP_WRONG = 'not-the-token-5678';
    delete process.env.TILLER_TEST_MCP_UNSET;
    http = await startHttpFixture({ token: 'token-for-the-fixture-1234' });
    h = await startMcpHarness(
      {
        web: { url: http.url, bearer_token_env_var: 'TILLER_TEST_MCP_TOKEN', trusted: true },
        nokey: { url: http.url, bearer_token_env_var: 'TILLER_TEST_MCP_UNSET' },
        wrong: { url: http.url, bearer_token_env_var: 'TILLER_TEST_MCP_WRONG' },
      },
      { approvalPolicy: 'on-request' },
    );
    const web = await waitForServer(h, 'web', 'ready');
    expect(web.authStatus).toBe('bearerToken');
    expect(Object.keys(web.tools)).toContain('echo');
    expect(web.resources.map((r) => r.uri)).toEqual([FIXTURE_RESOURCE_URI]);
    expect((await waitForServer(h, 'nokey', 'failed')).error).toBe(
      'the environment variable TILLER_TEST_MCP_UNSET (bearer_token_env_var) is not set',
    );
    expect((await waitForServer(h, 'wrong', 'failed')).error).toBe('HTTP 401: Error POSTing to endpoint: {"error":"unauthorized"}');
    const unauthorized = http.unauthorized;
    expect(unauthorized).toBeGreaterThan(0);

    h.fake.enqueue(callTool('web__echo', { text: 'over http' }), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(functionOutputs(h.fake.requests[1]!.body)).toEqual(['echo: over http']);
    expect(http.unauthorized).toBe(unauthorized);
    // The token never shows in what the client sees.
    expect(JSON.stringify(h.log.all)).not.toContain('token-for-the-fixture-1234');
  });

  it('an HTTP server that went away is found out by the next call: the call fails and the server is failed', async () => {
    process.env.TILLER_TEST_MCP_TOKEN = 'token-for-the-fixture-1234';
    http = await startHttpFixture({ token: 'token-for-the-fixture-1234' });
    h = await startMcpHarness({ web: { url: http.url, bearer_token_env_var: 'TILLER_TEST_MCP_TOKEN', trusted: true } });
    await waitForServer(h, 'web', 'ready');
    await http.close();
    h.fake.enqueue(callTool('web__echo', { text: 'anyone?' }), { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(completedMcp(h)[0]).toMatchObject({
      status: 'failed',
      error: { message: expect.stringMatching(/^the server could not be reached: fetch failed/) },
    });
    expect((await waitForServer(h, 'web', 'failed')).error).toMatch(/^could not be reached: fetch failed/);
    expect(toolNames(h.fake.requests[1]!.body)).toEqual(OFFERED);
  });
});

describe('processes', () => {
  it('one server process per app server, shared by its threads; close ends every server and what it started', async () => {
    const dir = tempDir('tiller-mcp-procs-');
    const pidFile = join(dir, 'fx.pid');
    const childFile = join(dir, 'child.pid');
    const hangPid = join(dir, 'hang.pid');
    const before = new Set(trackedProcessGroups());
    h = await startMcpHarness({
      fx: fixtureServer(['--pid-file', pidFile, '--spawn-child', childFile]),
      everything: everythingServer(),
      fs: filesystemServer(dir),
      stuck: fixtureServer(['--hang', '--pid-file', hangPid], { startup_timeout_sec: 30 }),
    });
    await waitForServer(h, 'fx', 'ready');
    await waitForServer(h, 'everything', 'ready');
    await waitForServer(h, 'fs', 'ready');
    const groups = trackedProcessGroups().filter((pid) => !before.has(pid));
    expect(groups).toHaveLength(4);
    await h.server.request('thread/start', {});
    await h.server.request('thread/start', {});
    expect(h.log.of('mcpServer/startupStatus/updated').filter((n) => n.status === 'starting')).toHaveLength(4);
    expect(
      trackedProcessGroups()
        .filter((pid) => !before.has(pid))
        .sort(),
    ).toEqual([...groups].sort());
    await new Promise<void>((resolve) => {
      const poll = (): void => (existsSync(childFile) && existsSync(hangPid) ? resolve() : void setTimeout(poll, 20));
      poll();
    });
    const pids = [
      Number(readFileSync(pidFile, 'utf8')),
      Number(readFileSync(childFile, 'utf8')),
      Number(readFileSync(hangPid, 'utf8')),
      ...groups,
    ];
    expect(pids.every(isAlive)).toBe(true);

    await h.close();
    h = undefined;
    for (const pid of pids) await waitForExit(pid, 3000);
    expect(trackedProcessGroups().filter((pid) => !before.has(pid))).toEqual([]);
  });
});

describe('tiller exec --json', () => {
  it('reports an MCP call as an mcp_tool_call item, after waiting for the server to start', async () => {
    const fake = await FakeResponsesServer.start();
    try {
      const env = fakeServerEnv(fake);
      const server = fixtureServer(['--start-delay', '300']);
      writeFileSync(
        join(env.TILLER_HOME!, 'config.toml'),
        `[mcp_servers.fx]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\ncwd = ${JSON.stringify(ROOT)}\ntrusted = true\n`,
      );
      fake.enqueue(callTool('fx__echo', { text: 'from exec' }), { text: 'done' });
      const child = spawnTiller(['exec', '--json', 'call it'], env);
      expect(await child.exit).toBe(0);
      const events = jsonEvents(child.lines);
      expect(events.map((e) => e.type)).toEqual([
        'thread.started',
        'turn.started',
        'item.started',
        'item.completed',
        'item.completed',
        'turn.completed',
      ]);
      expect(events[2]).toEqual({
        type: 'item.started',
        item: {
          id: 'item_0',
          type: 'mcp_tool_call',
          server: 'fx',
          tool: 'echo',
          arguments: { text: 'from exec' },
          result: null,
          error: null,
          status: 'in_progress',
        },
      });
      expect(events[3]).toEqual({
        type: 'item.completed',
        item: {
          id: 'item_0',
          type: 'mcp_tool_call',
          server: 'fx',
          tool: 'echo',
          arguments: { text: 'from exec' },
          result: { content: [{ type: 'text', text: 'echo: from exec' }], structured_content: null },
          error: null,
          status: 'completed',
        },
      });
      expect(toolNames(fake.requests[0]!.body)).toContain('fx__echo');
      expect(functionOutputs(fake.requests[1]!.body)).toEqual(['echo: from exec']);
    } finally {
      await fake.close();
    }
  });
});
