/**
 * view_image, update_plan, request_user_input and web_search end to end through `tiller exec
 * --json`: the fake server calls each tool, and the next request shows what the model read back.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/config.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

/** The output the second request carries for `callId`. */
function outputFor(callId: string, request = 1): unknown {
  const input = fake.requests[request]!.body.input as Array<{ type: string; call_id?: string; output?: unknown }>;
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;
}

async function run(args: string[], cwd?: string) {
  const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', ...args], fakeServerEnv(fake), cwd);
  expect(await child.exit).toBe(0);
  return jsonEvents(child.lines);
}

describe('view_image through tiller exec', () => {
  it('gives the model the image as an input_image (detail original), resized to fit 2048 as a user image', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'wide.png'),
      await sharp({ create: { width: 4096, height: 1024, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
    );
    fake.enqueue({ functionCall: { name: 'view_image', arguments: { path: 'wide.png' }, callId: 'img' } }, { text: 'seen' });
    await run(['x'], dir);
    const output = outputFor('img') as Array<{ type: string; image_url: string; detail: string }>;
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ type: 'input_image', detail: 'original' });
    expect(output[0]!.image_url).toMatch(/^data:image\/png;base64,/);
    const meta = await sharp(Buffer.from(output[0]!.image_url.split(',')[1]!, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 512]);
  });

  it('answers a missing file, a FIFO and a broken image with a path-free error, and the turn goes on', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, 'pipe.png')]);
    writeFileSync(join(dir, 'broken.png'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]));
    fake.enqueue(
      {
        functionCalls: [
          { name: 'view_image', arguments: { path: join(dir, 'missing.png') }, callId: 'a' },
          { name: 'view_image', arguments: { path: join(dir, 'pipe.png') }, callId: 'b' },
          { name: 'view_image', arguments: { path: join(dir, 'broken.png') }, callId: 'c' },
        ],
      },
      { text: 'done' },
    );
    const events = await run(['x']);
    expect(events.at(-1)!.type).toBe('turn.completed');
    const outputs = ['a', 'b', 'c'].map((id) => outputFor(id));
    expect(outputs).toEqual([
      'unable to read the image: no such file',
      'unable to read the image: not a regular file',
      expect.stringMatching(/^unable to process the image: /),
    ]);
    for (const output of outputs) expect(String(output)).not.toContain(dir);
  });
});

describe('update_plan through tiller exec', () => {
  it('answers "Plan updated" and carries the plan as one todo_list item: started, updated, completed at turn end', async () => {
    const plan = (statuses: string[]) => ({ plan: statuses.map((status, i) => ({ step: `step ${i + 1}`, status })) });
    fake.enqueue(
      { functionCall: { name: 'update_plan', arguments: plan(['in_progress', 'pending']), callId: 'p1' } },
      {
        functionCall: { name: 'update_plan', arguments: { explanation: 'one done', ...plan(['completed', 'in_progress']) }, callId: 'p2' },
      },
      { text: 'all done' },
    );
    const events = await run(['x']);
    expect(outputFor('p1')).toBe('Plan updated');
    const todo = events.filter((e) => (e.item as { type?: string } | undefined)?.type === 'todo_list');
    expect(todo.map((e) => e.type)).toEqual(['item.started', 'item.updated', 'item.completed']);
    const id = (todo[0]!.item as { id: string }).id;
    expect(todo.every((e) => (e.item as { id: string }).id === id)).toBe(true);
    expect(todo[2]!.item).toEqual({
      id,
      type: 'todo_list',
      items: [
        { text: 'step 1', completed: true },
        { text: 'step 2', completed: false },
      ],
    });
    expect(events.indexOf(todo[2]!)).toBe(events.length - 2);
  });

  it('refuses 10,000 steps and unknown statuses with a clear error, and the turn goes on', async () => {
    const many = { plan: Array.from({ length: 10_000 }, (_, i) => ({ step: `s${i}`, status: 'pending' })) };
    fake.enqueue(
      {
        functionCalls: [
          { name: 'update_plan', arguments: many, callId: 'big' },
          { name: 'update_plan', arguments: { plan: [{ step: 'a', status: 'done' }] }, callId: 'bad' },
        ],
      },
      { text: 'ok' },
    );
    const events = await run(['x']);
    expect(outputFor('big')).toBe('failed to parse function arguments: `plan` has 10000 steps; at most 100 are allowed');
    expect(outputFor('bad')).toBe('failed to parse function arguments: plan[0].status must be one of: pending, in_progress, completed');
    expect(events.some((e) => (e.item as { type?: string } | undefined)?.type === 'todo_list')).toBe(false);
  });
});

describe('request_user_input through tiller exec', () => {
  it('tells the model that no user is there to answer', async () => {
    const questions = [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red', description: 'warm' }] }];
    fake.enqueue({ functionCall: { name: 'request_user_input', arguments: { questions }, callId: 'q' } }, { text: 'picked myself' });
    const events = await run(['x']);
    expect(outputFor('q')).toMatch(/^request_user_input is unavailable: no user can answer/);
    expect(events.at(-1)!.type).toBe('turn.completed');
  });
});

describe('web_search through tiller exec', () => {
  it('maps a web_search_call to web_search items, keeps it in history and sends it back', async () => {
    fake.enqueue(
      {
        webSearches: [{ action: { type: 'search', query: 'tiller codex' } }],
        functionCall: { name: 'update_plan', arguments: { plan: [] }, callId: 'p' },
      },
      { text: 'found it' },
    );
    const events = await run(['x']);
    const search = events.filter((e) => (e.item as { type?: string } | undefined)?.type === 'web_search');
    expect(search.map((e) => e.type)).toEqual(['item.started', 'item.completed']);
    expect(search[1]!.item).toEqual({
      id: expect.stringMatching(/^item_\d+$/),
      type: 'web_search',
      query: 'tiller codex',
      action: { type: 'search', query: 'tiller codex' },
    });
    const sentBack = (fake.requests[1]!.body.input as Array<{ type: string }>).find((item) => item.type === 'web_search_call');
    expect(sentBack).toEqual({
      type: 'web_search_call',
      id: expect.any(String),
      status: 'completed',
      action: { type: 'search', query: 'tiller codex' },
    });
  });

  it('is not offered to a provider other than OpenAI (the fake server has its own base URL)', async () => {
    fake.enqueue({ text: 'ok' });
    await run(['x']);
    expect((fake.requests[0]!.body.tools as Array<{ type: string }>).some((tool) => tool.type === 'web_search')).toBe(false);
    const names = (fake.requests[0]!.body.tools as Array<{ name?: string }>).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['update_plan', 'view_image', 'request_user_input']));
  });
});
