/** The harness tools' arguments, limits and outputs (view_image, update_plan, request_user_input, web_search). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerNotification } from '../../src/protocol/api.js';
import { mapOutputItem } from '../../src/runtime/model/wires/responses/event-map.js';
import { webSearchItem } from '../../src/runtime/core/web-search-items.js';
import { ExecJsonMapper } from '../../src/runtime/exec/jsonl.js';
import { modelFamily } from '../../src/runtime/tools/model-family.js';
import { toolOffer, toolTable } from '../../src/runtime/tools/registry.js';
import { formatAnswersForModel, parseRequestUserInputArguments } from '../../src/runtime/tools/request-user-input/spec.js';
import { MAX_PLAN_STEPS, parseUpdatePlanArguments } from '../../src/runtime/tools/update-plan/spec.js';
import { parseViewImageArguments } from '../../src/runtime/tools/view-image/spec.js';
import { viewImageTool } from '../../src/runtime/tools/view-image/tool.js';
import { tempDir } from './support/config.js';

describe('update_plan arguments', () => {
  it('maps Codex statuses to the wire ones and keeps the explanation', () => {
    expect(
      parseUpdatePlanArguments(
        JSON.stringify({
          explanation: 'why',
          plan: [
            { step: 'a', status: 'in_progress' },
            { step: 'b', status: 'completed' },
          ],
        }),
      ),
    ).toEqual({
      explanation: 'why',
      plan: [
        { step: 'a', status: 'inProgress' },
        { step: 'b', status: 'completed' },
      ],
    });
  });

  it('refuses bad input with a bounded message', () => {
    const many = JSON.stringify({ plan: Array.from({ length: 10_000 }, () => ({ step: 'x', status: 'pending' })) });
    expect(parseUpdatePlanArguments(many)).toEqual({
      error: `failed to parse function arguments: \`plan\` has 10000 steps; at most ${MAX_PLAN_STEPS} are allowed`,
    });
    expect(parseUpdatePlanArguments('{"plan":[{"step":"a","status":"done"}]}')).toEqual({
      error: 'failed to parse function arguments: plan[0].status must be one of: pending, in_progress, completed',
    });
    expect(parseUpdatePlanArguments('{"plan":[{"step":"a","status":"in_progress"},{"step":"b","status":"in_progress"}]}')).toEqual({
      error: 'failed to parse function arguments: at most one step can be in_progress',
    });
    expect(parseUpdatePlanArguments('{"plan":[{"step":"' + 'x'.repeat(5000) + '","status":"pending"}]}')).toEqual({
      error: 'failed to parse function arguments: plan[0].step is longer than 2000 characters',
    });
    expect(parseUpdatePlanArguments('not json')).toEqual({ error: 'failed to parse function arguments: not JSON' });
    expect(parseUpdatePlanArguments('{}')).toEqual({
      error: 'failed to parse function arguments: `plan` must be an array of {step, status}',
    });
  });
});

describe('view_image', () => {
  it('needs a non-empty path', () => {
    expect(parseViewImageArguments('{"path":"a.png"}')).toEqual({ path: 'a.png' });
    expect(parseViewImageArguments('{"path":""}')).toEqual({
      error: 'failed to parse function arguments: `path` must be a non-empty string',
    });
    expect(parseViewImageArguments('[]')).toEqual({ error: 'failed to parse function arguments: `path` must be a non-empty string' });
  });

  function context(cwd: string, supportsImages = true) {
    const emitted: unknown[] = [];
    const services = {
      config: { modelSupportsImages: supportsImages },
      events: {
        itemStarted: (item: unknown) => emitted.push(['started', item]),
        itemCompleted: (item: unknown) => emitted.push(['completed', item]),
      },
    };
    const turn = { context: { cwd }, signal: new AbortController().signal };
    return {
      emitted,
      run: (args: unknown) =>
        viewImageTool.handle({ services, turn, call: { call_id: 'c', name: 'view_image', arguments: JSON.stringify(args) } } as never),
    };
  }

  it('refuses a tiny file whose header claims 30000×30000 as not a valid image, before decoding, with no path in the answer', async () => {
    const dir = tempDir();
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'ascii');
    ihdr.writeUInt32BE(30_000, 8);
    ihdr.writeUInt32BE(30_000, 12);
    ihdr.set([8, 6, 0, 0, 0], 16);
    writeFileSync(join(dir, 'bomb.png'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr, Buffer.alloc(64)]));
    const { emitted, run } = context(dir);
    const result = await run({ path: 'bomb.png' });
    expect(result.output).toEqual({
      type: 'function_call_output',
      call_id: 'c',
      output: 'unable to process the image: the file is not a valid image',
    });
    expect(JSON.stringify(result.output)).not.toContain(dir);
    expect(emitted).toEqual([]);
  });

  it("answers Codex's refusal for a model that takes no images", async () => {
    const { run } = context(tempDir(), false);
    expect((await run({ path: 'x.png' })).output).toMatchObject({
      output: 'view_image is not allowed because you do not support image inputs',
    });
  });

  it('is read-only, so it runs beside other read-only calls', () => {
    expect(viewImageTool.readOnly?.({} as never, {} as never)).toBe(true);
  });
});

describe('request_user_input', () => {
  const question = (id: string, options: unknown = [{ label: 'Yes', description: 'go' }]) => ({ id, header: 'H', question: 'Q?', options });

  it('asks one to three questions, each with options, and marks each isOther as Codex does', () => {
    expect(parseRequestUserInputArguments(JSON.stringify({ questions: [question('a')] }))).toEqual({
      questions: [{ id: 'a', header: 'H', question: 'Q?', isOther: true, isSecret: false, options: [{ label: 'Yes', description: 'go' }] }],
    });
    expect(
      parseRequestUserInputArguments(JSON.stringify({ questions: [question('a'), question('b'), question('c'), question('d')] })),
    ).toEqual({
      error: 'failed to parse function arguments: at most 3 questions can be asked at once',
    });
    expect(parseRequestUserInputArguments(JSON.stringify({ questions: [question('a', [])] }))).toEqual({
      error: 'request_user_input requires non-empty options for every question',
    });
    expect(parseRequestUserInputArguments(JSON.stringify({ questions: [question('a'), question('a')] }))).toEqual({
      error: 'failed to parse function arguments: questions[1].id repeats "a"',
    });
    expect(parseRequestUserInputArguments('{"questions":[]}')).toEqual({
      error: 'failed to parse function arguments: `questions` must be a non-empty array',
    });
  });

  it("answers with Codex's JSON, only for the questions asked", () => {
    const parsed = parseRequestUserInputArguments(JSON.stringify({ questions: [question('a'), question('b')] }));
    if ('error' in parsed) throw new Error(parsed.error);
    expect(formatAnswersForModel(parsed.questions, { answers: { a: { answers: ['Yes'] }, z: { answers: ['?'] } } })).toBe(
      '{"answers":{"a":{"answers":["Yes"]}}}',
    );
  });
});

describe('web_search', () => {
  const specTypes = (config: Parameters<typeof toolOffer>[0]) =>
    toolTable(modelFamily('gpt-5.5'), null, toolOffer(config)).specs.filter((s) => s.type === 'web_search');

  it("is offered on OpenAI's own API unless disabled: cached by default, live on request", () => {
    expect(specTypes({ apiKey: 'k', baseUrl: null })).toEqual([{ type: 'web_search', external_web_access: false }]);
    expect(specTypes({ apiKey: 'k', baseUrl: 'https://api.openai.com/v1', webSearch: 'live' })).toEqual([
      { type: 'web_search', external_web_access: true },
    ]);
    expect(specTypes({ apiKey: 'k', baseUrl: null, webSearch: 'disabled' })).toEqual([]);
    expect(specTypes({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', webSearch: 'live' })).toEqual([]);
    expect(specTypes({ apiKey: null, baseUrl: null })).toEqual([]);
  });

  it('maps web_search_call output items and their actions to webSearch items', () => {
    const item = mapOutputItem({
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'find_in_page', url: 'https://x.dev', pattern: 'api', extra: 1 },
    });
    expect(item).toEqual({
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'find_in_page', url: 'https://x.dev', pattern: 'api' },
    });
    expect(webSearchItem('i', item?.type === 'web_search_call' ? item.action : undefined)).toEqual({
      type: 'webSearch',
      id: 'i',
      query: "'api' in https://x.dev",
      action: { type: 'findInPage', url: 'https://x.dev', pattern: 'api' },
    });
    expect(webSearchItem('i', { type: 'search', queries: ['a', 'b'] })).toMatchObject({ query: 'a …' });
    expect(webSearchItem('i', { type: 'open_page', url: 'https://y.dev' })).toMatchObject({
      query: 'https://y.dev',
      action: { type: 'openPage', url: 'https://y.dev' },
    });
  });

  it("exec writes Codex's web_search item with the snake_case action", () => {
    const m = new ExecJsonMapper();
    const n: ServerNotification = {
      method: 'item/completed',
      params: {
        threadId: 't',
        turnId: 'u',
        completedAtMs: 0,
        item: { type: 'webSearch', id: 'w', query: 'q', action: { type: 'openPage', url: null } },
      },
    };
    expect(m.map(n)).toEqual([
      { type: 'item.completed', item: { id: 'item_0', type: 'web_search', query: 'q', action: { type: 'open_page' } } },
    ]);
  });
});
