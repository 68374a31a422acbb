/** `tiller resume NAME`: a word that is not an id is looked up among the named sessions, through every page of thread/list. */
import { describe, expect, it } from 'vitest';
import { resolveSessionName } from '../../../../src/tui/chat/sessions/session-name.js';
import { FakeAppServerClient, fakeThread } from '../fake-client.js';

describe('resolveSessionName', () => {
  it('an id is kept; a name is found on a later page; an unknown word comes back as it is', async () => {
    const client = new FakeAppServerClient();
    const named = { ...fakeThread('019a0000-0000-7000-8000-00000000000b'), name: 'Trip' };
    client.always('thread/list', (p) =>
      p.cursor == null
        ? { data: [fakeThread('019a0000-0000-7000-8000-00000000000a')], nextCursor: 'k' }
        : { data: [named], nextCursor: null },
    );
    const id = '019a0000-0000-7000-8000-000000000001';
    expect(await resolveSessionName(client, id)).toBe(id);
    expect(await resolveSessionName(client, 'trip')).toBe(named.id);
    expect(await resolveSessionName(client, 'Trip')).toBe(named.id);
    expect(await resolveSessionName(client, 'nope')).toBe('nope');
  });
});
