/**
 * The official Codex TypeScript SDK (`@openai/codex-sdk`) drives the built `bin/tiller` unchanged:
 * `codexPathOverride` names a two-line wrapper that runs it, and the SDK spawns it with its own
 * command line (`exec --experimental-json --config openai_base_url=… --cd … --skip-git-repo-check
 * … resume ID --image …`, the prompt on stdin, the key in CODEX_API_KEY) against the fake server.
 */
import { isContextFragment } from '../../src/protocol/context-fragments.js';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codex, type ThreadEvent } from '@openai/codex-sdk';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from '../runtime/support/harness.js';
import { ROOT } from '../runtime/support/spawn.js';
import { processAlive } from '../../src/runtime/process-alive.js';

let fake: FakeResponsesServer;
let work: string;
let pidFile: string;
let codex: Codex;

/** The wrapper records its pid; `exec` keeps it for tiller, so the pid is the child the SDK spawned. */
function wrapper(dir: string): string {
  const path = join(dir, 'codex');
  writeFileSync(path, `#!/bin/sh\necho $$ >> '${pidFile}'\nexec '${process.execPath}' '${ROOT}bin/tiller' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

function newCodex(): Codex {
  // Only what the SDK adds reaches tiller: no OPENAI_* variables, so the base URL and key must come from its flags and CODEX_API_KEY.
  return new Codex({
    codexPathOverride: wrapper(tempDir('sdk-bin-')),
    baseUrl: fake.baseUrl,
    apiKey: 'sdk-key',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SHELL: '/bin/sh', TILLER_HOME: join(work, 'home') },
  });
}

const threadOptions = () => ({ workingDirectory: join(work, 'project'), skipGitRepoCheck: true });

function userTexts(body: { input: Array<{ type: string; role?: string; content?: Array<{ type: string; text?: string }> }> }): string[] {
  return body.input
    .filter((i) => i.type === 'message' && i.role === 'user')
    .flatMap((m) => (m.content ?? []).filter((c) => c.type === 'input_text' && !isContextFragment(c.text ?? '')).map((c) => c.text ?? ''));
}

function assistantTexts(body: {
  input: Array<{ type: string; role?: string; content?: Array<{ type: string; text?: string }> }>;
}): string[] {
  return body.input
    .filter((i) => i.type === 'message' && i.role === 'assistant')
    .flatMap((m) => (m.content ?? []).map((c) => c.text ?? ''));
}

beforeEach(async () => {
  fake = await FakeResponsesServer.start();
  work = tempDir('sdk-work-');
  mkdirSync(join(work, 'project'));
  pidFile = join(work, 'pids');
  codex = newCodex();
});
afterEach(async () => {
  await fake.close();
});

describe('the Codex SDK drives tiller exec', () => {
  it('startThread().run(): the final response, items and usage; the key and base URL it passed are used', async () => {
    fake.enqueue({ text: 'Hello from the fake.', usage: { input_tokens: 12, output_tokens: 4 } });
    const thread = codex.startThread(threadOptions());
    const turn = await thread.run('say hello');
    expect(turn.finalResponse).toBe('Hello from the fake.');
    expect(turn.items).toEqual([{ id: 'item_0', type: 'agent_message', text: 'Hello from the fake.' }]);
    expect(turn.usage).toEqual({
      input_tokens: 12,
      cached_input_tokens: 0,
      cache_write_input_tokens: 0,
      output_tokens: 4,
      reasoning_output_tokens: 0,
    });
    expect(thread.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sdk-key');
    expect(userTexts(fake.requests[0]!.body)).toEqual(['say hello']);
  });

  it('runStreamed(): Codex’s events in order', async () => {
    fake.enqueue({ text: 'streamed answer' });
    const { events } = await codex.startThread(threadOptions()).runStreamed('stream it');
    const seen: ThreadEvent[] = [];
    for await (const event of events) seen.push(event);
    expect(seen.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(seen[2]).toEqual({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'streamed answer' } });
  });

  it('a second run() on the thread resumes it: the request carries the first turn; resumeThread(id) too', async () => {
    fake.enqueue({ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' });
    const thread = codex.startThread(threadOptions());
    await thread.run('first question');
    const id = thread.id!;
    const second = await thread.run('second question');
    expect(second.finalResponse).toBe('second answer');
    expect(thread.id).toBe(id);
    const body = fake.requests[1]!.body;
    expect(userTexts(body)).toEqual(['first question', 'second question']);
    expect(assistantTexts(body)).toEqual(['first answer']);

    const resumed = newCodex().resumeThread(id, threadOptions());
    expect((await resumed.run('third question')).finalResponse).toBe('third answer');
    expect(userTexts(fake.requests[2]!.body)).toEqual(['first question', 'second question', 'third question']);
    expect(assistantTexts(fake.requests[2]!.body)).toEqual(['first answer', 'second answer']);
  });

  it('an image input reaches the model before the text', async () => {
    const image = join(work, 'shot.png');
    writeFileSync(
      image,
      await sharp({ create: { width: 3, height: 2, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
    );
    fake.enqueue({ text: 'a blue picture' });
    const turn = await codex.startThread(threadOptions()).run([
      { type: 'text', text: 'what is this?' },
      { type: 'local_image', path: image },
    ]);
    expect(turn.finalResponse).toBe('a blue picture');
    const user = fake.requests[0]!.body.input.filter((i: { role?: string }) => i.role === 'user');
    const content = user.flatMap((m: { content: Array<{ type: string; image_url?: string; text?: string }> }) => m.content);
    const types = content.map((c: { type: string }) => c.type);
    expect(types).toContain('input_image');
    expect(types.indexOf('input_image')).toBeLessThan(types.lastIndexOf('input_text'));
    expect(content.find((c: { type: string }) => c.type === 'input_image').image_url).toMatch(/^data:image\/png;base64,/);
    expect(content.at(-1).text).toBe('what is this?');
  });

  it('outputSchema: sent as text.format, the answer parsed; an answer that does not match fails the run', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
    fake.enqueue({ text: '{"answer":"42"}' }, { text: '{"answer":42}' });
    const thread = codex.startThread(threadOptions());
    const turn = await thread.run('the answer?', { outputSchema: schema });
    expect(JSON.parse(turn.finalResponse)).toEqual({ answer: '42' });
    expect(fake.requests[0]!.body.text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', name: 'codex_output_schema', schema, strict: true },
    });

    await expect(codex.startThread(threadOptions()).run('again', { outputSchema: schema })).rejects.toThrow(
      /--output-schema: the final message does not match the schema/,
    );
  });

  it('an abort signal rejects the run and ends the child', async () => {
    fake.enqueue({ text: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), delayMs: 100 });
    const controller = new AbortController();
    const run = codex.startThread(threadOptions()).run('a long answer', { signal: controller.signal });
    await fake.waitForRequests(1, 15_000);
    controller.abort();
    await expect(run).rejects.toThrow(/abort/i);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    await vi.waitFor(() => expect(processAlive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  });

  it('a failing turn (the server answers 400) rejects the run with the server’s message', async () => {
    fake.enqueue({
      fault: { kind: 'status', status: 400, body: { error: { message: 'bad request body', type: 'invalid_request_error' } } },
    });
    await expect(codex.startThread(threadOptions()).run('q')).rejects.toThrow(/bad request body/);
    expect(fake.requests).toHaveLength(1);
  });

  it('outside a Git repository without skipGitRepoCheck it refuses as Codex does, sending nothing', async () => {
    await expect(codex.startThread({ workingDirectory: join(work, 'project') }).run('q')).rejects.toThrow(
      /Not inside a trusted directory and --skip-git-repo-check was not specified/,
    );
    expect(fake.requests).toHaveLength(0);
    expect(existsSync(join(work, 'home', 'sessions'))).toBe(false);
  });
});
