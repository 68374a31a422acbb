/** thread/start records, thread/list, thread/read, thread/resume, thread/fork and thread/revert, over the fake model server. */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServerClient, ThreadListResult, Turn } from '../../src/protocol/api.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import type { TillerConfig } from '../../src/runtime/config.js';
import { lockPathOf, metaPathOf } from '../../src/runtime/rollout/paths.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { inputTexts, NotificationLog, tempDir, testConfig, text } from './support/harness.js';
import { until } from './support/process.js';
import { writeSyntheticSession } from './support/synthetic-rollout.js';

interface Server {
  client: AppServerClient;
  log: NotificationLog;
}

let fake: FakeResponsesServer;
let config: TillerConfig;
const open: AppServerClient[] = [];

async function server(cwd = tempDir()): Promise<Server> {
  fake ??= await FakeResponsesServer.start();
  config ??= testConfig({ baseUrl: fake.baseUrl });
  const client = createInProcessAppServer({ config, cwd, backoffMs: () => 5 });
  open.push(client);
  const log = new NotificationLog();
  client.onNotification(log.push);
  await client.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
  return { client, log };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
  await fake?.close();
  fake = undefined as unknown as FakeResponsesServer;
  config = undefined as unknown as TillerConfig;
});

/** Runs one turn to its end; returns the completed turn. */
async function turn(s: Server, threadId: string, prompt: string, answer = `answer to ${prompt}`): Promise<Turn> {
  fake.enqueue({ text: answer, usage: { input_tokens: 11, output_tokens: 3 } });
  const { turn: started } = await s.client.request('turn/start', { threadId, input: [text(prompt)] });
  return (await s.log.waitFor('turn/completed', (n) => n.turn.id === started.id)).turn;
}

async function thread(s: Server, prompts: string[], cwd?: string): Promise<{ threadId: string; turns: Turn[]; path: string }> {
  const started = await s.client.request('thread/start', cwd ? { cwd } : {});
  const turns: Turn[] = [];
  for (const prompt of prompts) turns.push(await turn(s, started.thread.id, prompt));
  return { threadId: started.thread.id, turns, path: started.thread.path! };
}

const lastInput = (): string[] => inputTexts(fake.requests.at(-1)!.body);

describe('thread/start and the rollout', () => {
  it('fills every Thread field; the file appears with the first turn, 0600 in 0700 directories, with a meta file', async () => {
    const s = await server();
    const started = await s.client.request('thread/start', {});
    expect(started.thread).toMatchObject({
      preview: '',
      ephemeral: false,
      status: { type: 'idle' },
      sessionId: started.thread.id,
      projectId: null,
      source: 'appServer',
      forkedFromId: null,
      name: null,
      turns: [],
      modelProvider: expect.any(String),
      cliVersion: expect.any(String),
    });
    const path = started.thread.path!;
    expect(path).toMatch(
      new RegExp(`/sessions/\\d{4}/\\d{2}/\\d{2}/rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${started.thread.id}\\.jsonl$`),
    );
    expect(existsSync(path)).toBe(false);
    await turn(s, started.thread.id, 'hello there');
    await s.client.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (let dir = dirname(path); dir !== config.home; dir = dirname(dir)) expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(metaPathOf(path)).mode & 0o777).toBe(0o600);
    expect(existsSync(lockPathOf(path))).toBe(false);
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines[0]).toMatchObject({ type: 'header', version: 1, threadId: started.thread.id, source: 'appServer', forkedFromId: null });
    expect(lines.map((line) => line.type)).toEqual(
      expect.arrayContaining(['context', 'settings', 'turnStarted', 'history', 'item', 'turnCompleted']),
    );
    expect(JSON.parse(readFileSync(metaPathOf(path), 'utf8'))).toMatchObject({ preview: 'hello there', turnCount: 1 });
  });

  it('a thread that never had a turn leaves no file; an ephemeral one never writes', async () => {
    const s = await server();
    const empty = await s.client.request('thread/start', {});
    const ephemeral = await s.client.request('thread/start', { ephemeral: true });
    expect(ephemeral.thread).toMatchObject({ ephemeral: true, path: null });
    await turn(s, ephemeral.thread.id, 'not saved');
    const listed = await s.client.request('thread/list', {});
    expect(listed.data.map((t) => t.id)).toEqual([ephemeral.thread.id]);
    await s.client.close();
    expect(existsSync(empty.thread.path!)).toBe(false);
    const again = await server();
    expect((await again.client.request('thread/list', {})).data).toEqual([]);
  });
});

describe('where threads are recorded', () => {
  it("records the server's source (the TUI: cli)", async () => {
    fake = await FakeResponsesServer.start();
    config = testConfig({ baseUrl: fake.baseUrl });
    const client = createInProcessAppServer({ config, cwd: tempDir(), source: 'cli' });
    open.push(client);
    const log = new NotificationLog();
    client.onNotification(log.push);
    const started = await client.request('thread/start', {});
    expect(started.thread.source).toBe('cli');
    await turn({ client, log }, started.thread.id, 'from the tui');
    await client.close();
    expect(JSON.parse(readFileSync(started.thread.path!, 'utf8').split('\n')[0]!)).toMatchObject({ source: 'cli' });
  });

  it('a rollout that cannot be written is one warning; the thread goes on', async () => {
    const s = await server();
    writeFileSync(join(config.home, 'sessions'), 'not a directory');
    const { threadId } = await thread(s, ['one', 'two']);
    // The rollout is written off the turn's path: the failure is told once that write has failed.
    await s.log.waitFor('warning', (w) => w.threadId === threadId);
    const warnings = s.log.of('warning').filter((w) => w.threadId === threadId);
    expect(warnings.map((w) => w.message)).toEqual(['this session could not be saved (ENOTDIR); it will not be resumable']);
    expect(lastInput()).toEqual(['one', 'answer to one', 'two']);
  });
});

describe('thread/resume', () => {
  it('loads the turns, usage and settings; the next turn sends the whole earlier history', async () => {
    const first = await server();
    const { threadId } = await thread(first, ['first question', 'second question']);
    await first.client.close();

    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId });
    expect(resumed.thread).toMatchObject({ id: threadId, status: { type: 'idle' }, preview: 'first question', tillerTurnCount: 2 });
    expect(resumed.thread.turns).toHaveLength(2);
    expect(resumed.thread.turns[0]).toMatchObject({ status: 'completed', itemsView: 'full' });
    expect(resumed.thread.turns[0]!.items.map((item) => item.type)).toEqual(['userMessage', 'agentMessage']);
    expect(resumed.thread.turns[1]!.items[1]).toMatchObject({ type: 'agentMessage', text: 'answer to second question' });
    expect(resumed).toMatchObject({
      model: 'test-model',
      approvalPolicy: 'never',
      sandbox: { type: 'dangerFullAccess' },
      reasoningEffort: null,
      tillerRolloutWarnings: [],
    });
    expect(resumed.tillerTokenUsage?.total.inputTokens).toBe(22);
    expect(s.log.of('thread/started').map((n) => n.thread.id)).toEqual([threadId]);

    await turn(s, threadId, 'third question');
    expect(lastInput()).toEqual([
      'first question',
      'answer to first question',
      'second question',
      'answer to second question',
      'third question',
    ]);
    const usage = s.log.of('thread/tokenUsage/updated').at(-1)!;
    expect(usage.tokenUsage.total.inputTokens).toBe(33);
  });

  it('tillerTurnsLimit: only the last turns come with their items, earlier ones notLoaded; the model still gets all of it', async () => {
    const first = await server();
    const { threadId } = await thread(first, ['one', 'two', 'three', 'four']);
    await first.client.close();
    const full = await (await server()).client.request('thread/read', { threadId, includeTurns: true });

    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId, tillerTurnsLimit: 2 });
    expect(resumed.thread.turns.map((t) => t.id)).toEqual(full.thread.turns.map((t) => t.id));
    expect(resumed.thread.turns.map((t) => [t.itemsView, t.items.length])).toEqual([
      ['notLoaded', 0],
      ['notLoaded', 0],
      ['full', 2],
      ['full', 2],
    ]);
    expect(resumed.thread.turns.slice(2)).toEqual(full.thread.turns.slice(2));
    expect(resumed.thread.turns[0]).toMatchObject({ status: 'completed', startedAt: full.thread.turns[0]!.startedAt });
    await turn(s, threadId, 'five');
    expect(lastInput()).toEqual([
      'one',
      'answer to one',
      'two',
      'answer to two',
      'three',
      'answer to three',
      'four',
      'answer to four',
      'five',
    ]);
    // Loaded here now: the same limit on the answer from memory, and on a fork.
    const again = await s.client.request('thread/resume', { threadId, tillerTurnsLimit: 1 });
    expect(again.thread.turns.map((t) => t.itemsView)).toEqual(['notLoaded', 'notLoaded', 'notLoaded', 'notLoaded', 'full']);
    const forked = await s.client.request('thread/fork', { threadId, tillerTurnsLimit: 0 });
    expect(forked.thread.turns.map((t) => t.itemsView)).toEqual(Array(5).fill('notLoaded'));
    await expect(s.client.request('thread/resume', { threadId, tillerTurnsLimit: -1 })).rejects.toThrow(/tillerTurnsLimit/);
  });

  it('an image sent before is sent again, the same bytes, even with its file gone; text elements kept', async () => {
    const first = await server();
    const started = await first.client.request('thread/start', {});
    const path = join(tempDir(), 'shot.png');
    writeFileSync(
      path,
      await sharp({ create: { width: 8, height: 4, channels: 3, background: '#0f0' } })
        .png()
        .toBuffer(),
    );
    fake.enqueue({ text: 'a green box' });
    const prompt = {
      type: 'text' as const,
      text: 'what is [Image #1]',
      text_elements: [{ byteRange: { start: 8, end: 18 }, placeholder: '[Image #1]' }],
    };
    const { turn: t } = await first.client.request('turn/start', {
      threadId: started.thread.id,
      input: [{ type: 'localImage', path }, prompt],
    });
    await first.log.waitFor('turn/completed', (n) => n.turn.id === t.id);
    const sent = JSON.stringify(fake.requests[0]!.body.input);
    await first.client.close();
    rmSync(path);
    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId: started.thread.id });
    expect(resumed.thread.turns[0]!.items[0]).toMatchObject({ type: 'userMessage', content: [{ type: 'localImage', path }, prompt] });
    await turn(s, started.thread.id, 'and now?');
    const again = fake.requests[1]!.body.input as unknown[];
    expect(JSON.stringify(again.slice(0, JSON.parse(sent).length))).toBe(sent);
    expect(sent).toContain('data:image/');
  });

  it('an interrupted turn: its partial input and the <turn_aborted> marker come back, the turn shown interrupted', async () => {
    const first = await server();
    const started = await first.client.request('thread/start', {});
    fake.enqueue({ deltas: ['never ', 'finished ', 'at ', 'all'], delayMs: 150 });
    const { turn: t } = await first.client.request('turn/start', { threadId: started.thread.id, input: [text('stop me')] });
    await first.log.waitFor('item/agentMessage/delta');
    await first.client.request('turn/interrupt', { threadId: started.thread.id, turnId: t.id });
    await first.client.close();
    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId: started.thread.id });
    expect(resumed.thread.turns.map((x) => x.status)).toEqual(['interrupted']);
    await turn(s, started.thread.id, 'next');
    const texts = lastInput();
    expect(texts[0]).toBe('stop me');
    expect(texts[1]).toContain('<turn_aborted>');
    expect(texts.at(-1)).toBe('next');
  });

  it('takes model, approval policy and sandbox from the params over the file, and records them', async () => {
    const first = await server();
    const { threadId } = await thread(first, ['q']);
    await first.client.close();
    const s = await server();
    const resumed = await s.client.request('thread/resume', {
      threadId,
      model: 'other-model',
      approvalPolicy: 'untrusted',
      sandbox: 'read-only',
      excludeTurns: true,
    });
    expect(resumed).toMatchObject({ model: 'other-model', approvalPolicy: 'untrusted', sandbox: { type: 'readOnly' } });
    expect(resumed.thread.turns).toEqual([]);
    await turn(s, threadId, 'next');
    expect(fake.requests.at(-1)!.body.model).toBe('other-model');
    await s.client.close();
    const again = await server();
    expect(await again.client.request('thread/resume', { threadId })).toMatchObject({ model: 'other-model', approvalPolicy: 'untrusted' });
  });

  it('a thread loaded here is just returned; an unknown id is refused', async () => {
    const s = await server();
    const { threadId } = await thread(s, ['one']);
    const resumed = await s.client.request('thread/resume', { threadId });
    expect(resumed.thread.turns).toHaveLength(1);
    await expect(s.client.request('thread/resume', { threadId: '0190a6c4-0000-7000-8000-000000000000' })).rejects.toMatchObject({
      code: -32600,
      message: 'no session with id 0190a6c4-0000-7000-8000-000000000000',
    });
    await expect(s.client.request('thread/resume', { threadId: 'nope' })).rejects.toMatchObject({ message: 'no session with id nope' });
  });

  it('a thread another server holds is refused with its pid; once released it resumes', async () => {
    const holder = await server();
    const { threadId, path } = await thread(holder, ['mine']);
    // A new thread's file (and lock) are written with its first flush, right after the turn.
    await until(() => existsSync(lockPathOf(path)));
    const other = await server();
    const refused = await other.client.request('thread/resume', { threadId }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: -32600,
      message: `session ${threadId} is open in another Tiller (pid ${process.pid})`,
      data: { tillerSessionLocked: { pid: process.pid } },
    });
    // Read-only access still works.
    expect((await other.client.request('thread/read', { threadId, includeTurns: true })).thread.turns).toHaveLength(1);
    await holder.client.close();
    expect((await other.client.request('thread/resume', { threadId })).thread.id).toBe(threadId);
  });

  it('a stale lock (its process is gone) is taken over', async () => {
    const first = await server();
    const { threadId, path } = await thread(first, ['crashed earlier']);
    await first.client.close();
    writeFileSync(lockPathOf(path), '999999999\n');
    const s = await server();
    expect((await s.client.request('thread/resume', { threadId })).thread.id).toBe(threadId);
    expect(readFileSync(lockPathOf(path), 'utf8').trim()).toBe(String(process.pid));
  });

  it('a torn last line is skipped with a warning, cut off, and the thread goes on', async () => {
    const first = await server();
    const { threadId, path } = await thread(first, ['before the crash']);
    await first.client.close();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"history","turnId":null,"entry":{"type":"ite`);
    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId });
    expect(resumed.tillerRolloutWarnings).toEqual([expect.stringContaining('cut off')]);
    await turn(s, threadId, 'after');
    expect(lastInput()).toEqual(['before the crash', 'answer to before the crash', 'after']);
    await s.client.close();
    const again = await server();
    expect((await again.client.request('thread/resume', { threadId })).tillerRolloutWarnings).toEqual([]);
  });

  it.each([
    ['every turn', {}],
    ['the last turn (the history read back behind the answer)', { tillerTurnsLimit: 1 }],
  ])('a turn a crash left open is shown interrupted and its dangling tool call gets an output: %s', async (_label, limit) => {
    const first = await server();
    const { threadId, path } = await thread(first, ['run it']);
    await first.client.close();
    const turnId = '0190a6c4-0000-7000-8000-0000000000aa';
    const settings = JSON.parse(readFileSync(path, 'utf8').split('\n')[2]!).settings;
    const lines = [
      { type: 'turnStarted', turnId, at: Date.now(), kind: 'regular', settings },
      {
        type: 'history',
        turnId,
        entry: {
          type: 'userInput',
          content: [{ type: 'text', text: 'then crash', text_elements: [] }],
          converted: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'then crash' }] }],
        },
      },
      {
        type: 'history',
        turnId,
        entry: { type: 'item', item: { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":"sleep 100"}' } },
      },
    ];
    writeFileSync(path, `${readFileSync(path, 'utf8')}${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const s = await server();
    const resumed = await s.client.request('thread/resume', { threadId, ...limit });
    expect(resumed.thread.turns.map((t) => t.status)).toEqual(['completed', 'interrupted']);
    await turn(s, threadId, 'go on');
    const input = fake.requests.at(-1)!.body.input as Array<{ type: string; call_id?: string }>;
    expect(input.filter((item) => item.call_id === 'call_1').map((item) => item.type)).toEqual(['function_call', 'function_call_output']);
  });
});

describe('thread/list and thread/read', () => {
  it('newest first, filtered by cwd and search term, paged by cursor; loaded threads included', async () => {
    const [a, b] = [tempDir(), tempDir()];
    const s = await server();
    const t1 = await thread(s, ['alpha one'], a);
    const t2 = await thread(s, ['beta two'], b);
    const t3 = await thread(s, ['alpha three'], b);
    await s.client.close();
    const t = await server();
    const loaded = await thread(t, ['gamma loaded'], a);
    await t.client.request('thread/start', {}); // no turn: not listed

    const all = await t.client.request('thread/list', {});
    expect(all.data.map((x) => x.id)).toEqual([loaded.threadId, t3.threadId, t2.threadId, t1.threadId]);
    expect(all.nextCursor).toBeNull();
    expect(all.data[0]).toMatchObject({ status: { type: 'idle' }, preview: 'gamma loaded' });
    expect(all.data[1]).toMatchObject({ status: { type: 'notLoaded' }, preview: 'alpha three', cwd: b, tillerTurnCount: 1, turns: [] });

    expect((await t.client.request('thread/list', { cwd: a })).data.map((x) => x.id)).toEqual([loaded.threadId, t1.threadId]);
    expect((await t.client.request('thread/list', { cwd: [a, b], searchTerm: 'ALPHA' })).data.map((x) => x.id)).toEqual([
      t3.threadId,
      t1.threadId,
    ]);
    expect((await t.client.request('thread/list', { sourceKinds: ['cli'] })).data).toEqual([]);

    const page1 = await t.client.request('thread/list', { limit: 3 });
    expect(page1.data.map((x) => x.id)).toEqual([loaded.threadId, t3.threadId, t2.threadId]);
    const page2 = await t.client.request('thread/list', { limit: 3, cursor: page1.nextCursor });
    expect(page2).toMatchObject({ data: [{ id: t1.threadId }], nextCursor: null });
    await expect(t.client.request('thread/list', { cursor: 'garbage' })).rejects.toMatchObject({ code: -32602 });
  });

  it('pages through many sessions on disk, each exactly once, newest first, with or without meta files', async () => {
    const s = await server();
    const written = [];
    for (let i = 0; i < 120; i++) written.push(await writeSyntheticSession({ home: config.home, turns: 1, toolOutputChars: 10 }));
    for (const w of written.filter((_, i) => i % 7 === 0)) rmSync(metaPathOf(w.path));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ThreadListResult = await s.client.request('thread/list', { limit: 50, cursor });
      expect(page.data.length).toBeLessThanOrEqual(50);
      seen.push(...page.data.map((t) => t.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(written.map((w) => w.threadId).reverse());
  });

  it('without a meta file, the header and first user line tell the listing', async () => {
    const s = await server();
    const { threadId, path } = await thread(s, ['from the head', 'later']);
    await s.client.close();
    writeFileSync(metaPathOf(path), '{broken');
    const t = await server();
    expect((await t.client.request('thread/list', {})).data).toMatchObject([
      { id: threadId, preview: 'from the head', tillerTurnCount: null },
    ]);
  });

  it('thread/read gives the metadata, and the turns when asked', async () => {
    const s = await server();
    const { threadId } = await thread(s, ['read me']);
    await s.client.close();
    const t = await server();
    const plain = await t.client.request('thread/read', { threadId });
    expect(plain.thread).toMatchObject({ id: threadId, status: { type: 'notLoaded' }, preview: 'read me', turns: [] });
    const full = await t.client.request('thread/read', { threadId, includeTurns: true });
    expect(full.thread.turns[0]!.items[0]).toMatchObject({ type: 'userMessage', content: [text('read me')] });
    await expect(t.client.request('thread/read', { threadId: '0190a6c4-0000-7000-8000-000000000001' })).rejects.toMatchObject({
      message: 'no session with id 0190a6c4-0000-7000-8000-000000000001',
    });
  });
});

describe('thread/fork', () => {
  it('through a turn: a new thread with its own file, forkedFromId, and only that history sent', async () => {
    const s = await server();
    const source = await thread(s, ['one', 'two', 'three']);
    const forked = await s.client.request('thread/fork', { threadId: source.threadId, lastTurnId: source.turns[1]!.id });
    expect(forked.thread).toMatchObject({ forkedFromId: source.threadId, sessionId: source.threadId, preview: 'one' });
    expect(forked.thread.id).not.toBe(source.threadId);
    expect(forked.thread.turns.map((t) => t.id)).toEqual([source.turns[0]!.id, source.turns[1]!.id]);
    await turn(s, forked.thread.id, 'four');
    expect(lastInput()).toEqual(['one', 'answer to one', 'two', 'answer to two', 'four']);
    await s.client.close();

    const t = await server();
    const reloaded = await t.client.request('thread/resume', { threadId: forked.thread.id });
    expect(reloaded.thread.turns).toHaveLength(3);
    expect(reloaded.thread.forkedFromId).toBe(source.threadId);
    const original = await t.client.request('thread/resume', { threadId: source.threadId });
    expect(original.thread.turns).toHaveLength(3);
    await turn(t, source.threadId, 'again');
    expect(lastInput()).toEqual(['one', 'answer to one', 'two', 'answer to two', 'three', 'answer to three', 'again']);
  });

  it('before a turn (Tiller): up to it, exclusive; before the first turn: an empty thread', async () => {
    const s = await server();
    const source = await thread(s, ['one', 'two']);
    const before = await s.client.request('thread/fork', { threadId: source.threadId, tillerBeforeTurnId: source.turns[1]!.id });
    expect(before.thread.turns.map((t) => t.id)).toEqual([source.turns[0]!.id]);
    const empty = await s.client.request('thread/fork', { threadId: source.threadId, tillerBeforeTurnId: source.turns[0]!.id });
    expect(empty.thread).toMatchObject({ turns: [], preview: '' });
    await turn(s, empty.thread.id, 'fresh');
    expect(lastInput()).toEqual(['fresh']);
    await expect(s.client.request('thread/fork', { threadId: source.threadId, lastTurnId: 'no-such-turn' })).rejects.toMatchObject({
      message: `no turn no-such-turn in session ${source.threadId}`,
    });
  });

  it('of a thread on disk, without loading it; ephemeral when asked', async () => {
    const s = await server();
    const source = await thread(s, ['on disk']);
    await s.client.close();
    const t = await server();
    const forked = await t.client.request('thread/fork', { threadId: source.threadId, ephemeral: true });
    expect(forked.thread).toMatchObject({ ephemeral: true, path: null, forkedFromId: source.threadId });
    await turn(t, forked.thread.id, 'more');
    expect(lastInput()).toEqual(['on disk', 'answer to on disk', 'more']);
    // The source is not loaded, so still free to resume elsewhere.
    expect((await t.client.request('thread/read', { threadId: source.threadId })).thread.status).toEqual({ type: 'notLoaded' });
  });
});

describe('thread/revert', () => {
  it('drops the turn and later ones; the next request and a later resume agree', async () => {
    const s = await server();
    const { threadId, turns } = await thread(s, ['one', 'two', 'three']);
    const reverted = await s.client.request('thread/revert', { threadId, beforeTurnId: turns[1]!.id });
    expect(reverted.thread).toMatchObject({ id: threadId, turns: [], tillerTurnCount: 1 });
    await turn(s, threadId, 'two again');
    expect(lastInput()).toEqual(['one', 'answer to one', 'two again']);
    await s.client.close();
    const t = await server();
    const resumed = await t.client.request('thread/resume', { threadId });
    expect(resumed.thread.turns.map((x) => (x.items[0] as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      'one',
      'two again',
    ]);
    await turn(t, threadId, 'four');
    expect(lastInput()).toEqual(['one', 'answer to one', 'two again', 'answer to two again', 'four']);
  });

  it('before a compaction: the history from before it comes back, also on resume', async () => {
    const s = await server();
    const { threadId, turns } = await thread(s, ['one', 'two']);
    fake.enqueue({ text: 'the summary' });
    const { turn: compact } = await s.client.request('turn/start', { threadId, input: [], kind: 'compact' });
    await s.log.waitFor('turn/completed', (n) => n.turn.id === compact.id);
    await turn(s, threadId, 'after compaction');
    expect(lastInput()[0]).toContain('the summary');
    await s.client.request('thread/revert', { threadId, beforeTurnId: turns[1]!.id });
    await turn(s, threadId, 'redo');
    expect(lastInput()).toEqual(['one', 'answer to one', 'redo']);
    await s.client.close();
    const t = await server();
    await t.client.request('thread/resume', { threadId });
    await turn(t, threadId, 'next');
    expect(lastInput()).toEqual(['one', 'answer to one', 'redo', 'answer to redo', 'next']);
  });

  it('refuses an unknown turn, a running turn and a thread not loaded', async () => {
    const s = await server();
    const { threadId, turns } = await thread(s, ['one']);
    await expect(s.client.request('thread/revert', { threadId, beforeTurnId: 'x' })).rejects.toMatchObject({
      message: `no turn x in session ${threadId}`,
    });
    fake.enqueue({ deltas: ['slow ', 'answer'], delayMs: 100 });
    const { turn: running } = await s.client.request('turn/start', { threadId, input: [text('busy')] });
    await s.log.waitFor('turn/started', (n) => n.turn.id === running.id);
    await expect(s.client.request('thread/revert', { threadId, beforeTurnId: turns[0]!.id })).rejects.toMatchObject({
      message: expect.stringContaining('turn running'),
    });
    await s.log.waitFor('turn/completed', (n) => n.turn.id === running.id);
    await s.client.close();
    const t = await server();
    await expect(t.client.request('thread/revert', { threadId, beforeTurnId: turns[0]!.id })).rejects.toMatchObject({
      message: expect.stringContaining('not loaded'),
    });
  });
});
