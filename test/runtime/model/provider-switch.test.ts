/**
 * A session that switches provider mid-session (`/model`, or `-c model_provider=` on resume): the
 * history one wire recorded goes to another, and neither API is sent reasoning it would refuse with a
 * 400. The runtime holds one model client whose wire changes between turns, as a switch does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../../src/runtime/model/types.js';
import { wireById } from '../../../src/runtime/model/wires/index.js';
import { FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { FakeChatServer } from '../../support/fake-chat-server.js';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { type Harness, startHarness, text } from '../support/harness.js';

let anthropic: FakeAnthropicServer;
let responses: FakeResponsesServer;
let chat: FakeChatServer;
let h: Harness;
let current: ModelClient;

const onAnthropic = (): ModelClient =>
  wireById('anthropic').create({ label: 'anthropic', baseUrl: anthropic.baseUrl, apiKey: 'sk-ant-k', idleTimeoutMs: 5000 });
const onChat = (): ModelClient =>
  wireById('chat').create({ label: 'deepseek', baseUrl: chat.baseUrl, apiKey: 'sk-ds', idleTimeoutMs: 5000 });
const onResponses = (): ModelClient =>
  wireById('responses').create({ label: 'openai', baseUrl: responses.baseUrl, apiKey: 'sk-k', idleTimeoutMs: 5000 });

beforeEach(async () => {
  anthropic = await FakeAnthropicServer.start();
  responses = await FakeResponsesServer.start();
  chat = await FakeChatServer.start();
  current = onAnthropic();
  const switching: ModelClient = { label: 'switching', stream: (request, signal, options) => current.stream(request, signal, options) };
  h = await startHarness({ config: { model: 'claude-sonnet-4-5', reasoningEffort: 'low' }, server: { modelClient: switching } });
});
afterEach(async () => {
  await h.close();
  await anthropic.close();
  await responses.close();
  await chat.close();
});

async function turn(prompt: string): Promise<void> {
  const started = await h.server.request('turn/start', { threadId: h.threadId, input: [text(prompt)] });
  const done = await h.log.waitFor('turn/completed', (n) => n.turn.id === started.turn.id);
  expect(done.turn.status).toBe('completed');
}

describe('switching provider mid-session', () => {
  it('sends no Anthropic thinking or signature to the Responses API after a turn on Anthropic', async () => {
    const signature = 'EqQBCgIYAhIMx/+sig=='.repeat(4);
    anthropic.enqueue({ thinking: { text: 'Claude is thinking.', signature }, text: 'Claude answered.' });
    await turn('first on claude');

    current = onResponses();
    responses.enqueue({ text: 'GPT answered.' });
    await turn('then on gpt');
    const [request] = await responses.waitForRequests(1);
    const sent = JSON.stringify(request!.body.input);
    // The conversation goes along; the thinking block that only Anthropic can verify does not.
    expect(sent).toContain('Claude answered.');
    expect(sent).toContain('then on gpt');
    expect(request!.body.input.some((item: { type: string }) => item.type === 'reasoning')).toBe(false);
    expect(sent).not.toContain(signature);
    expect(sent).not.toContain('anthropic-thinking:');
  });

  it('sends no OpenAI encrypted reasoning to Anthropic after a turn on the Responses API', async () => {
    current = onResponses();
    responses.enqueue({ reasoning: { summary: ['GPT is thinking.'], encryptedContent: 'gAAAAB-openai-sealed' }, text: 'GPT answered.' });
    await turn('first on gpt');

    current = onAnthropic();
    anthropic.enqueue({ text: 'Claude answered.' });
    await turn('then on claude');
    const [request] = await anthropic.waitForRequests(1);
    const sent = JSON.stringify(request!.body.messages);
    expect(sent).toContain('GPT answered.');
    expect(sent).not.toContain('gAAAAB-openai-sealed');
    expect(sent).not.toMatch(/"type":"(redacted_)?thinking"/);
  });

  it("sends a chat server's reasoning_content to neither the Responses API nor Anthropic", async () => {
    current = onChat();
    chat.enqueue({ reasoning: ['DeepSeek ', 'is thinking.'], text: 'DeepSeek answered.' });
    await turn('first on deepseek');

    current = onResponses();
    responses.enqueue({ text: 'GPT answered.' });
    await turn('then on gpt');
    const [toOpenai] = await responses.waitForRequests(1);
    const sent = JSON.stringify(toOpenai!.body.input);
    expect(sent).toContain('DeepSeek answered.');
    expect(toOpenai!.body.input.some((item: { type: string }) => item.type === 'reasoning')).toBe(false);
    expect(sent).not.toMatch(/DeepSeek is thinking|chat-reasoning/);

    current = onAnthropic();
    anthropic.enqueue({ text: 'Claude answered.' });
    await turn('then on claude');
    const [toClaude] = await anthropic.waitForRequests(1);
    expect(JSON.stringify(toClaude!.body)).not.toMatch(/DeepSeek is thinking|chat-reasoning|"type":"thinking"/);
  });

  it("sends the chat server's own reasoning back to it after a turn elsewhere", async () => {
    current = onChat();
    chat.enqueue({ reasoning: ['Think first.'], text: 'DeepSeek answered.' });
    await turn('first on deepseek');
    current = onResponses();
    responses.enqueue({ reasoning: { summary: ['GPT sums up.'], encryptedContent: 'gAAAAB-sealed' }, text: 'GPT answered.' });
    await turn('then on gpt');
    current = onChat();
    chat.enqueue({ text: 'Back on DeepSeek.' });
    await turn('back to deepseek');
    const request = chat.requests.at(-1)!;
    const sent = JSON.stringify(request.body.messages);
    expect(sent).toContain('"reasoning_content":"Think first."');
    expect(sent).not.toMatch(/GPT sums up|gAAAAB-sealed/);
  });
});
