import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, text } from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a retried stream', () => {
  it('closes the failed attempt’s partial message before the retried answer streams', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'partial answer here and more', fault: { kind: 'drop', afterEvents: 5 } }, { text: 'recovered' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    const started = h.log.of('item/started').filter((n) => n.item.type === 'agentMessage').map((n) => n.item.id);
    const completed = h.log.of('item/completed').filter((n) => n.item.type === 'agentMessage');
    expect(started.length).toBeGreaterThan(0);
    expect(completed.map((n) => n.item.id).sort()).toEqual([...started].sort());
    expect(completed.at(-1)?.item).toMatchObject({ text: 'recovered' });
  });
});
