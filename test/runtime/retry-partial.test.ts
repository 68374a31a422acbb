import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, text } from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a retried stream', () => {
  it('never completes the failed attempt’s partial message: one completed agentMessage, the retry’s', async () => {
    h = await startHarness();
    h.fake.enqueue({ text: 'partial answer here and more', fault: { kind: 'drop', afterEvents: 5 } }, { text: 'recovered' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    const started = h.log
      .of('item/started')
      .filter((n) => n.item.type === 'agentMessage')
      .map((n) => n.item.id);
    const completed = h.log.of('item/completed').filter((n) => n.item.type === 'agentMessage');
    // The partial streamed live (started, deltas) in its own item; the retry streamed a new one.
    expect(started).toHaveLength(2);
    const partialDeltas = h.log.of('item/agentMessage/delta').filter((n) => n.itemId === started[0]);
    expect(partialDeltas.map((n) => n.delta).join('')).toMatch(/^partial/);
    expect(completed.map((n) => n.item)).toEqual([{ type: 'agentMessage', id: started[1], text: 'recovered' }]);
  });
});
