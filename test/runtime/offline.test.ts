import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppServerClient } from '../../src/protocol/api.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { NotificationLog, tempDir, testConfig, text } from './support/harness.js';

beforeAll(() => {
  process.env.TILLER_OFFLINE_DELAY_MS = '0';
});

let server: AppServerClient;
afterEach(async () => {
  await server?.close();
});

async function start(): Promise<{ log: NotificationLog; threadId: string; provider: string }> {
  server = createInProcessAppServer({
    config: testConfig({ apiKey: null, baseUrl: null, model: 'tiller-offline', approvalPolicy: 'on-request' }),
    cwd: tempDir(),
  });
  const log = new NotificationLog();
  server.onNotification(log.push);
  const { thread } = await server.request('thread/start', {});
  return { log, threadId: thread.id, provider: thread.modelProvider };
}

describe('the embedded offline model through the runtime', () => {
  it('a turn completes with a streamed account of the input', async () => {
    const { log, threadId, provider } = await start();
    expect(provider).toBe('offline');
    await server.request('turn/start', { threadId, input: [text('hello offline')] });
    const done = await log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(log.of('item/agentMessage/delta').length).toBeGreaterThan(1);
    const message = log.of('item/completed').find((n) => n.item.type === 'agentMessage');
    expect(message?.item.type === 'agentMessage' && message.item.text.length).toBeGreaterThan(0);
  });

  it('the account lists the text elements of the prompt (they reach the offline model beside the request)', async () => {
    const { log, threadId } = await start();
    const prompt = 'what is in [Image #1]?';
    await server.request('turn/start', {
      threadId,
      input: [{ type: 'text', text: prompt, text_elements: [{ byteRange: { start: 11, end: 21 }, placeholder: '[Image #1]' }] }],
    });
    await log.waitFor('turn/completed');
    const message = log.of('item/completed').find((n) => n.item.type === 'agentMessage')!.item;
    expect(message.type === 'agentMessage' && message.text).toContain(`“${prompt}”; text elements: [Image #1] at bytes 11–21`);
  });

  it('`run: echo hi` calls the shell tool after approval and the turn completes', async () => {
    const { log, threadId } = await start();
    const asked: string[] = [];
    server.setServerRequestHandler(async (req) => {
      asked.push((req.params as { command: string }).command);
      return { decision: 'accept' };
    });
    await server.request('turn/start', { threadId, input: [text('run: echo hi')] });
    const done = await log.waitFor('turn/completed');
    expect(done.turn.status).toBe('completed');
    expect(asked).toEqual(['echo hi']);
    const item = log.of('item/completed').find((n) => n.item.type === 'commandExecution')!.item;
    expect(item).toMatchObject({ status: 'completed', exitCode: 0, aggregatedOutput: 'hi\n' });
    const messages = log.of('item/completed').filter((n) => n.item.type === 'agentMessage');
    expect(messages.length).toBeGreaterThanOrEqual(1);
  });
});
