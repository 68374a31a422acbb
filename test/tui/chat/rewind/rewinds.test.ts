/**
 * The rewind controller (chat/rewind/rewind.ts) against a fake app server: which requests each
 * choice sends and in what order, the overwrite question and its force, a cancel that sends
 * nothing, backtrack without a menu when no file changed, and the redo stack a new turn clears.
 */
import { describe, expect, it } from 'vitest';
import type { TillerTurnCheckpoint } from '../../../../src/protocol/api.js';
import { Rewinds } from '../../../../src/tui/chat/rewind/rewind.js';
import { REWIND_CANCELLED } from '../../../../src/tui/chat/rewind/rewind-plan.js';
import { initialComposerState } from '../../../../src/tui/composer/state.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';
import { createChatStore, withCells } from '../../../../src/tui/store.js';
import { FakeAppServerClient } from '../fake-client.js';

const checkpoint = (turnId: string, changedFiles = 1): TillerTurnCheckpoint => ({
  turnId,
  workspace: '/w',
  before: `b-${turnId}`,
  after: `a-${turnId}`,
  note: null,
  changedFiles,
});

function setup(checkpoints: TillerTurnCheckpoint[]) {
  const client = new FakeAppServerClient();
  client.always('tiller/checkpoints/list', () => ({ checkpoints }));
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
  store.setState({ threadId: 'thread-1' });
  const prompt = (text: string, turnId: string) => ({ kind: 'user' as const, text, textElements: [], attachmentLabels: [], turnId });
  store.setState((s) => withCells(s, [prompt('one', 't1'), { kind: 'agent', markdown: 'a1' }, prompt('two', 't2')]));
  const log: string[] = [];
  let tail: Promise<void> = Promise.resolve();
  const rewinds = new Rewinds({
    client,
    store,
    cwd: '/w',
    threadId: () => store.getState().threadId,
    backtrackTo: (cellId) => log.push(`backtrack ${cellId}`),
    returnTo: (threadId) => log.push(`return ${threadId}`),
    serialize: (task) => {
      tail = tail.then(task);
    },
  });
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await tail;
  };
  const texts = () => store.getState().cells.flatMap((c) => (c.kind === 'info' || c.kind === 'error' ? [c.text] : []));
  const sent = () => client.requests.filter((r) => r.method !== 'tiller/checkpoints/list').map((r) => [r.method, r.params]);
  const two = store.getState().cells.find((c) => c.kind === 'user' && c.turnId === 't2')!.id;
  return { client, store, rewinds, log, settle, texts, sent, two };
}

describe('the rewind controller', () => {
  it('backtrack goes straight to the conversation when no file changed since the turn', async () => {
    const t = setup([checkpoint('t1', 0), checkpoint('t2', 0)]);
    t.rewinds.backtrack(t.two);
    await t.settle();
    expect(t.store.getState().rewind ?? null).toBeNull();
    expect(t.log).toEqual([`backtrack ${t.two}`]);
  });

  it('"both": the files first, then the conversation; /redo then offers both and returns to the session', async () => {
    const t = setup([checkpoint('t1'), checkpoint('t2')]);
    t.client.once('tiller/checkpoints/restore', () => ({ status: 'restored', changes: [{ path: '/w/a.txt', kind: 'update' }] }));
    t.rewinds.backtrack(t.two);
    await t.settle();
    expect(t.store.getState().rewind).toMatchObject({ stage: 'choose', subject: 'two', selected: 0 });
    t.rewinds.input(key('enter'));
    await t.settle();
    expect(t.sent()).toEqual([['tiller/checkpoints/restore', { threadId: 'thread-1', turnId: 't2', force: false }]]);
    expect(t.log).toEqual([`backtrack ${t.two}`]);
    expect(t.texts()).toContain('Files put back to before “two”: a.txt changed back.');

    t.client.always('tiller/checkpoints/list', () => ({ checkpoints: [{ ...checkpoint('t2'), rewind: { redo: 'r', at: 1 } }] }));
    t.client.once('tiller/checkpoints/redo', () => ({ status: 'restored', changes: [] }));
    t.rewinds.redo();
    await t.settle();
    expect(t.store.getState().rewind).toMatchObject({ stage: 'choose', direction: 'redo', selected: 0 });
    t.rewinds.input(charKey('1'));
    await t.settle();
    // The files are redone in the session the undo left, which keeps the rewind.
    expect(t.sent().at(-1)).toEqual(['tiller/checkpoints/redo', { threadId: 'thread-1', force: false }]);
    expect(t.log).toEqual([`backtrack ${t.two}`, 'return thread-1']);
  });

  it('a file changed outside Tiller: names it, sends force only on "overwrite", and a cancel sends nothing more', async () => {
    const t = setup([checkpoint('t1'), checkpoint('t2')]);
    t.client.once('tiller/checkpoints/restore', () => ({ status: 'userEdited', paths: ['/w/a.txt'] }));
    t.client.once('tiller/checkpoints/restore', () => ({ status: 'userEdited', paths: ['/w/a.txt'] }));
    t.client.once('tiller/checkpoints/restore', () => ({ status: 'restored', changes: [] }));
    t.rewinds.undo();
    await t.settle();
    expect(t.store.getState().rewind).toMatchObject({ subject: 'two' });
    t.rewinds.input(charKey('3'));
    await t.settle();
    expect(t.store.getState().rewind).toMatchObject({ stage: 'overwrite', scope: 'files', paths: ['/w/a.txt'] });
    t.rewinds.input(key('escape'));
    await t.settle();
    expect(t.texts()).toContain(REWIND_CANCELLED);
    expect(t.sent()).toHaveLength(1);

    t.rewinds.undo();
    await t.settle();
    t.rewinds.input(charKey('3'));
    await t.settle();
    t.rewinds.input(charKey('1'));
    await t.settle();
    expect(t.sent().at(-1)).toEqual(['tiller/checkpoints/restore', { threadId: 'thread-1', turnId: 't2', force: true }]);
    expect(t.log).toEqual([]);
    expect(t.store.getState().rewind ?? null).toBeNull();
  });

  it('/undo with files unavailable still offers the conversation; an error from the server is said', async () => {
    const t = setup([]);
    t.rewinds.undo();
    await t.settle();
    expect(t.store.getState().rewind).toMatchObject({ selected: 1, why: { files: expect.stringMatching(/no checkpoint/) } });
    t.rewinds.input(key('enter'));
    await t.settle();
    expect(t.log).toEqual([`backtrack ${t.two}`]);
    expect(t.sent()).toEqual([]);

    const u = setup([checkpoint('t1'), checkpoint('t2')]);
    u.client.once('tiller/checkpoints/restore', () => ({
      status: 'unavailable',
      message: 'the disk holding the checkpoint store is full',
    }));
    u.rewinds.undo();
    await u.settle();
    u.rewinds.input(charKey('1'));
    await u.settle();
    expect(u.store.getState().cells.at(-1)).toMatchObject({
      kind: 'error',
      text: 'Could not put the files back: the disk holding the checkpoint store is full',
    });
    expect(u.log).toEqual([]);
  });

  it('a new turn clears the redo of a conversation: /redo then has nothing', async () => {
    const t = setup([checkpoint('t1'), checkpoint('t2')]);
    t.rewinds.undo();
    await t.settle();
    t.rewinds.input(charKey('2'));
    await t.settle();
    t.rewinds.turnStarted();
    t.rewinds.redo();
    await t.settle();
    expect(t.store.getState().rewind ?? null).toBeNull();
    expect(t.texts().at(-1)).toBe('Nothing to redo.');
  });
});
