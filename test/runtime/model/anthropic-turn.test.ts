/**
 * Whole turns through the app server on the Anthropic wire (its client made through the registry,
 * as model/create.ts makes it): thinking, parallel tool calls, their follow-up request, images,
 * usage and the core's retries, all against the fake Messages server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import { wireById } from '../../../src/runtime/model/wires/index.js';
import { FakeAnthropicServer } from '../../support/fake-anthropic-server.js';
import { type Harness, NotificationLog, startHarness, tempDir, text } from '../support/harness.js';

let anthropic: FakeAnthropicServer;
let h: Harness;

/** The wire's client as model/create.ts makes it, against the fake server. */
const anthropicClient = () =>
  wireById('anthropic').create({ label: 'anthropic', baseUrl: anthropic.baseUrl, apiKey: 'sk-ant-k', idleTimeoutMs: 5000 });

beforeEach(async () => {
  anthropic = await FakeAnthropicServer.start();
  h = await startHarness({ config: { model: 'claude-sonnet-4-5', reasoningEffort: 'low' }, server: { modelClient: anthropicClient() } });
});
afterEach(async () => {
  await h.close();
  await anthropic.close();
});

async function turn(input: Parameters<typeof text>[0] | Array<Record<string, unknown>>): Promise<string> {
  const started = await h.server.request('turn/start', {
    threadId: h.threadId,
    input: typeof input === 'string' ? [text(input)] : (input as never),
  });
  const done = await h.log.waitFor('turn/completed', (n) => n.turn.id === started.turn.id);
  return done.turn.status;
}

describe('a turn on the Anthropic wire', () => {
  it('runs parallel tool calls and sends the thinking block first, signature unchanged, then one tool_result per id', async () => {
    const signature = 'EqQBCgIYAhIMx/+sig=='.repeat(8);
    const thinking = 'I should look at both files.\nThen answer.';
    anthropic.enqueue(
      {
        thinking: { text: thinking, signature },
        text: 'Checking.',
        toolUses: [
          { name: 'exec_command', input: { cmd: 'echo one' }, id: 'toolu_one' },
          { name: 'exec_command', input: { cmd: 'echo two' }, id: 'toolu_two' },
        ],
      },
      { text: 'Both ran.' },
    );
    expect(await turn('run both')).toBe('completed');
    const [first, second] = await anthropic.waitForRequests(2);

    for (const request of [first!, second!]) {
      expect(request.headers['x-api-key']).toBe('sk-ant-k');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(first!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    // The brief is the system prompt; the tools are Anthropic's shape, apply_patch a function of `input`.
    expect(first!.body.system[0].text.length).toBeGreaterThan(100);
    const patch = first!.body.tools.find((t: { name: string }) => t.name === 'apply_patch');
    expect(patch.input_schema.properties.input.type).toBe('string');

    const messages = second!.body.messages;
    const reply = messages.at(-2);
    expect(reply.role).toBe('assistant');
    expect(reply.content[0]).toEqual({ type: 'thinking', thinking, signature });
    expect(reply.content.slice(1).map((b: { type: string }) => b.type)).toEqual(['text', 'tool_use', 'tool_use']);
    expect(reply.content[2]).toMatchObject({ id: 'toolu_one', name: 'exec_command', input: { cmd: 'echo one' } });
    const results = messages.at(-1);
    expect(results.role).toBe('user');
    expect(results.content.map((b: { tool_use_id: string }) => b.tool_use_id)).toEqual(['toolu_one', 'toolu_two']);
    expect(JSON.stringify(results.content[0].content)).toContain('one');
    expect(JSON.stringify(results.content[1].content)).toContain('two');
    // The stable prefix is cached up to the last block.
    expect(results.content.at(-1).cache_control).toEqual({ type: 'ephemeral' });

    const reasoning = h.log.of('item/completed').find((n) => n.item.type === 'reasoning');
    expect(reasoning?.item).toMatchObject({ type: 'reasoning', content: [thinking] });
    const answer = h.log.of('item/completed').filter((n) => n.item.type === 'agentMessage');
    expect(answer.map((n) => (n.item as { text: string }).text)).toEqual(['Checking.', 'Both ran.']);
  });

  it('reports usage with the cache tokens in the input figure', async () => {
    anthropic.enqueue({
      text: 'hi',
      usage: { input_tokens: 20, cache_read_input_tokens: 1000, cache_creation_input_tokens: 80, output_tokens: 7 },
    });
    await turn('hello');
    expect(h.log.of('thread/tokenUsage/updated').at(-1)!.tokenUsage.last).toEqual({
      inputTokens: 1100,
      cachedInputTokens: 1000,
      cacheWriteInputTokens: 80,
      outputTokens: 7,
      reasoningOutputTokens: 0,
      totalTokens: 1107,
    });
  });

  it('retries an overloaded server (529) and an overloaded stream through the core, then completes', async () => {
    anthropic.enqueue(
      { fault: { kind: 'status', status: 529, type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'half', fault: { kind: 'error', type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'made it' },
    );
    expect(await turn('hello')).toBe('completed');
    expect(anthropic.requests).toHaveLength(3);
    const answer = h.log.of('item/completed').find((n) => n.item.type === 'agentMessage');
    expect((answer!.item as { text: string }).text).toBe('made it');
  });

  it('sends a local image as a base64 image block', async () => {
    const path = join(tempDir(), 'shot.png');
    writeFileSync(
      path,
      await sharp({ create: { width: 8, height: 4, channels: 3, background: '#0f0' } })
        .png()
        .toBuffer(),
    );
    anthropic.enqueue({ text: 'green' });
    await turn([{ type: 'localImage', path }, text('what colour?')]);
    const [request] = await anthropic.waitForRequests(1);
    const content = request!.body.messages.at(-1).content;
    const image = content.find((b: { type: string }) => b.type === 'image');
    expect(image.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(Buffer.from(image.source.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(JSON.stringify(request!.body)).not.toContain(path);
  });

  it('sends the thinking block and its signature again after the thread is resumed from its rollout', async () => {
    const signature = 'c2lnbmF0dXJl+/=='.repeat(10);
    anthropic.enqueue(
      { thinking: { text: 'Look first.', signature }, toolUses: [{ name: 'exec_command', input: { cmd: 'echo hi' }, id: 'toolu_r' }] },
      { text: 'Done.' },
      { text: 'Again.' },
    );
    await turn('look');
    await h.server.close();

    const server = createInProcessAppServer({ config: h.config, modelClient: anthropicClient(), backoffMs: () => 5 });
    const log = new NotificationLog();
    server.onNotification(log.push);
    try {
      await server.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
      await server.request('thread/resume', { threadId: h.threadId });
      const started = await server.request('turn/start', { threadId: h.threadId, input: [text('and now?')] });
      await log.waitFor('turn/completed', (n) => n.turn.id === started.turn.id);
    } finally {
      await server.close();
    }
    const messages = anthropic.requests.at(-1)!.body.messages;
    const reply = messages.find((m: { role: string; content: Array<{ type: string }> }) => m.content[0]?.type === 'thinking');
    expect(reply.content[0]).toEqual({ type: 'thinking', thinking: 'Look first.', signature });
    expect(reply.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_r' });
    expect(messages[messages.indexOf(reply) + 1].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_r' });
  });
});
