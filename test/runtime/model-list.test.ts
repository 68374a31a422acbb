/**
 * `model/list` in the app server (the provider's GET /models through the SDK, the config's list
 * when that fails) and turn/start's `effort`, sent to the Responses API as `reasoning.effort`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REASONING_EFFORT_DESCRIPTIONS, REASONING_EFFORTS } from '../../src/protocol/api.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { JsonRpcConnection } from '../../src/runtime/app-server-stdio.js';
import { OFFLINE_MODEL_DESCRIPTION } from '../../src/runtime/model-list.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { type Harness, startHarness, tempDir, testConfig, text } from './support/harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

async function harness(config: Parameters<typeof testConfig>[0] = {}): Promise<Harness> {
  h = await startHarness({ config });
  return h;
}

describe('model/list', () => {
  it("lists the provider's models (GET /models), sorted, the config's model the default", async () => {
    const { fake, server } = await harness({ model: 'fake-model', reasoningEffort: 'high' });
    fake.setModels(['zeta', 'fake-model', 'alpha']);
    const result = await server.request('model/list', {});
    expect(fake.modelListRequests).toHaveLength(1);
    expect(fake.modelListRequests[0]!.headers.authorization).toBe('Bearer dummy');
    expect(result).toEqual({
      data: ['alpha', 'fake-model', 'zeta'].map((id) => ({
        id,
        model: id,
        displayName: id,
        description: 'owned by fake',
        hidden: false,
        supportedReasoningEfforts: REASONING_EFFORTS.map((reasoningEffort) => ({
          reasoningEffort,
          description: REASONING_EFFORT_DESCRIPTIONS[reasoningEffort],
        })),
        defaultReasoningEffort: 'high',
        isDefault: id === 'fake-model',
      })),
      nextCursor: null,
      note: null,
    });
    // Listing models is not a Responses request.
    expect(fake.requests).toHaveLength(0);
  });

  it('pages with limit and cursor', async () => {
    const { fake, server } = await harness();
    fake.setModels(['a', 'b', 'c']);
    const first = await server.request('model/list', { limit: 2 });
    expect(first.data.map((m) => m.id)).toEqual(['a', 'b']);
    expect(first.nextCursor).toBe('2');
    const second = await server.request('model/list', { limit: 2, cursor: first.nextCursor });
    expect(second).toMatchObject({ data: [{ id: 'c' }], nextCursor: null });
  });

  it('a 404 falls back to the models of config.toml, with a note saying why', async () => {
    const { fake, server } = await harness({ model: 'mine', models: ['a', 'b'] });
    fake.setModels({ status: 404 });
    const result = await server.request('model/list', {});
    expect(result.data.map((m) => m.id)).toEqual(['a', 'b']);
    expect(result.data.every((m) => !m.isDefault && m.description === '' && m.defaultReasoningEffort === 'medium')).toBe(true);
    expect(result.note).toBe(
      'The provider did not list its models (unexpected status 404: scripted status 404); showing the models listed in config.toml.',
    );
  });

  it('a server error with no list in the config offers the configured model alone', async () => {
    const { fake, server } = await harness({ model: 'mine' });
    fake.setModels({ status: 500 });
    const result = await server.request('model/list', {});
    expect(result.data).toMatchObject([{ id: 'mine', model: 'mine', displayName: 'mine', description: '', isDefault: true }]);
    expect(result.note).toMatch(
      /^The provider did not list its models \(unexpected status 500: .*\); showing the configured model only\.$/,
    );
  });

  it('an empty list falls back too', async () => {
    const { fake, server } = await harness({ model: 'mine' });
    fake.setModels([]);
    expect(await server.request('model/list', {})).toMatchObject({
      data: [{ id: 'mine' }],
      note: expect.stringContaining('its list is empty'),
    });
  });

  it('the offline model lists itself', async () => {
    const server = createInProcessAppServer({
      config: testConfig({ apiKey: null, baseUrl: null, model: 'tiller-offline' }),
      cwd: tempDir(),
    });
    try {
      const result = await server.request('model/list', {});
      expect(result).toMatchObject({
        data: [
          {
            id: 'tiller-offline',
            model: 'tiller-offline',
            displayName: 'tiller-offline',
            description: OFFLINE_MODEL_DESCRIPTION,
            isDefault: true,
          },
        ],
        nextCursor: null,
        note: null,
      });
    } finally {
      await server.close();
    }
  });

  it('is served over the JSON-RPC connection (`tiller app-server`)', async () => {
    const fake = await FakeResponsesServer.start();
    const lines: Array<Record<string, unknown>> = [];
    const connection = new JsonRpcConnection(createInProcessAppServer({ config: testConfig({ baseUrl: fake.baseUrl }), cwd: tempDir() }), {
      write: (message) => void lines.push(message as Record<string, unknown>),
    });
    try {
      connection.handleLine(JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '0' } } }));
      connection.handleLine(JSON.stringify({ id: 2, method: 'model/list', params: {} }));
      connection.handleLine(JSON.stringify({ id: 3, method: 'model/list', params: { limit: 0 } }));
      await connection.close();
      expect(lines.find((l) => l.id === 2)).toMatchObject({
        result: { data: [{ id: 'fake-model' }, { id: 'fake-model-mini' }, { id: 'fake-reasoner' }], nextCursor: null },
      });
      expect(lines.find((l) => l.id === 3)).toMatchObject({ error: { code: -32602, message: expect.stringContaining('limit') } });
    } finally {
      await fake.close();
    }
  });
});

describe('turn/start effort', () => {
  async function turnBody(harnessed: Harness, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const { turn } = await harnessed.server.request('turn/start', { threadId: harnessed.threadId, input: [text('hi')], ...params });
    await harnessed.log.waitFor('turn/completed', (p) => p.turn.id === turn.id);
    return harnessed.fake.requests.at(-1)!.body;
  }

  it('is sent as reasoning.effort, stays for the next turns (null too, as Codex), and tillerClearEffort clears it', async () => {
    const hh = await harness();
    const plain = await turnBody(hh);
    expect(plain).not.toHaveProperty('reasoning');
    expect(await turnBody(hh, { effort: 'high' })).toMatchObject({ reasoning: { effort: 'high' } });
    expect(await turnBody(hh)).toMatchObject({ reasoning: { effort: 'high' } });
    expect(await turnBody(hh, { effort: null })).toMatchObject({ reasoning: { effort: 'high' } });
    expect(await turnBody(hh, { tillerClearEffort: true })).not.toHaveProperty('reasoning');
  });

  it("starts from the config's model_reasoning_effort", async () => {
    const hh = await harness({ reasoningEffort: 'minimal' });
    expect(await turnBody(hh)).toMatchObject({ reasoning: { effort: 'minimal' } });
  });

  it('refuses an effort that is none of the five', async () => {
    const hh = await harness();
    await expect(hh.server.request('turn/start', { threadId: hh.threadId, input: [text('hi')], effort: 'max' as never })).rejects.toThrow(
      /effort/,
    );
  });
});
