/** askClient: the client's answer as read, or what the turn's end means for the request. */
import { describe, expect, it } from 'vitest';
import { askClient } from '../../src/runtime/client-ask.js';

describe('askClient', () => {
  it('reads the answer; a turn already stopped sends nothing', async () => {
    const read = (result: unknown): string => String((result as { decision: string }).decision);
    expect(
      await askClient(
        () => Promise.resolve({ decision: 'accept' }),
        new AbortController().signal,
        read,
        () => 'cancel',
      ),
    ).toBe('accept');
    const stopped = new AbortController();
    stopped.abort();
    let sent = false;
    const send = (): Promise<unknown> => {
      sent = true;
      return Promise.resolve({});
    };
    expect(await askClient(send, stopped.signal, read, () => 'cancel')).toBe('cancel');
    expect(sent).toBe(false);
  });

  it('the turn stopping first settles it; a failing read or client rejects', async () => {
    const turn = new AbortController();
    const pending = askClient(
      () => new Promise(() => {}),
      turn.signal,
      () => 'never',
      () => 'cancel',
    );
    turn.abort();
    expect(await pending).toBe('cancel');
    const malformed = askClient(
      () => Promise.resolve(null),
      new AbortController().signal,
      () => {
        throw new Error('malformed answer');
      },
      () => 'x',
    );
    await expect(malformed).rejects.toThrow('malformed answer');
    await expect(
      askClient(
        () => Promise.reject('gone'),
        new AbortController().signal,
        String,
        () => 'x',
      ),
    ).rejects.toThrow('gone');
  });
});
