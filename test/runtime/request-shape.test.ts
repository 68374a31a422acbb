/**
 * The request body Tiller sends, field by field against Codex 0.171's (CODEX-REFERENCE §7.1, §9): reasoning
 * with a summary and its encrypted content sent back unchanged, verbosity per model family, parallel
 * tool calls, and a freeform call answered in its own form.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelRequestBody } from '../../src/runtime/core/request-body.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

const parts = { input: [], tools: [], threadId: 't', outputSchema: null };

describe('the request body per model family', () => {
  it('gpt-5.5: reasoning medium with a summary, encrypted reasoning kept, verbosity low, parallel calls', () => {
    expect(modelRequestBody({ ...parts, model: 'gpt-5.5', effort: null })).toMatchObject({
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      text: { verbosity: 'low' },
      parallel_tool_calls: true,
      store: false,
      prompt_cache_key: 't',
    });
  });

  it('a Codex-tuned model takes no verbosity; the chosen effort wins over the default', () => {
    const body = modelRequestBody({ ...parts, model: 'gpt-5.1-codex', effort: 'high' });
    expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(body.text).toBeUndefined();
  });

  it('an unknown model gets no field it might refuse, unless an effort was asked for', () => {
    const plain = modelRequestBody({ ...parts, model: 'llama3', effort: null });
    expect(plain.reasoning).toBeUndefined();
    expect(plain.include).toEqual([]);
    expect(plain.text).toBeUndefined();
    expect(modelRequestBody({ ...parts, model: 'llama3', effort: 'low' })).toMatchObject({
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
    });
  });

  it('an output schema goes in text.format beside the verbosity', () => {
    expect(modelRequestBody({ ...parts, model: 'gpt-5.5', effort: null, outputSchema: { type: 'object' } }).text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', name: 'codex_output_schema', schema: { type: 'object' }, strict: true },
    });
  });
});

describe('through tiller exec against the fake server', () => {
  it('sends every reasoning item back unchanged before the call it preceded, and answers an unknown freeform call in kind', async () => {
    fake.enqueue(
      {
        reasoning: { summary: ['Looking at the tree'], encryptedContent: 'ENC-1' },
        customToolCalls: [{ name: 'no_such_freeform', input: 'raw input', callId: 'call_c' }],
      },
      { text: 'done' },
    );
    const child = spawnTiller(['exec', '-m', 'gpt-5.5', 'go'], fakeServerEnv(fake));
    expect(await child.exit).toBe(0);
    const [first, second] = fake.requests.map((r) => r.body);
    expect(first).toMatchObject({ reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
    const tail = second.input.slice(-3);
    expect(tail).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Looking at the tree' }], content: null, encrypted_content: 'ENC-1' },
      { type: 'custom_tool_call', call_id: 'call_c', name: 'no_such_freeform', input: 'raw input' },
      { type: 'custom_tool_call_output', call_id: 'call_c', output: 'unsupported call: no_such_freeform' },
    ]);
  });

  it('a resumed thread sends its reasoning items back as they came', async () => {
    const env = fakeServerEnv(fake);
    const cwd = tempDir();
    fake.enqueue({ reasoning: { summary: ['Weighing it up'], encryptedContent: 'ENC-R' }, text: 'first answer' });
    const first = spawnTiller(['exec', '--skip-git-repo-check', '--json', '-m', 'gpt-5.5', 'first'], env, cwd);
    expect(await first.exit).toBe(0);
    const threadId = jsonEvents(first.lines)[0]!.thread_id as string;
    fake.enqueue({ text: 'second answer' });
    const resumed = spawnTiller(['exec', '--skip-git-repo-check', '-m', 'gpt-5.5', 'resume', threadId, 'second'], env, cwd);
    expect(await resumed.exit).toBe(0);
    expect(fake.requests[1]!.body.input).toContainEqual({
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Weighing it up' }],
      content: null,
      encrypted_content: 'ENC-R',
    });
  });
});
