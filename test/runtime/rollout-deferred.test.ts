/**
 * A resume's deferred read: history and item lines left in the file and read back later give the
 * same thread as reading every line; lines in another form are read at once; a line that no longer
 * reads is skipped with a warning; a Session's turns wait for a history still being read.
 */
import { appendFileSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerNotification } from '../../src/protocol/api.js';
import { StartOrSteer, userInputRequest } from '../../src/protocol/turn-input.js';
import type { HistoryEntry } from '../../src/runtime/core/history.js';
import { Session } from '../../src/runtime/core/session.js';
import type { RolloutLine } from '../../src/runtime/rollout/format.js';
import { deferrable, LineRef, loadHistory, loadItems } from '../../src/runtime/rollout/lazy.js';
import { readRollout, readRolloutDeferred } from '../../src/runtime/rollout/reader.js';
import { NotificationLog, tempDir, testConfig, text } from './support/harness.js';
import { ScriptedModelClient, textScript } from './support/scripted-model.js';
import { writeSyntheticRollout } from './support/synthetic-rollout.js';

const message = (role: 'user' | 'assistant', words: string): HistoryEntry => ({
  type: 'item',
  item:
    role === 'user'
      ? { type: 'message', role, content: [{ type: 'input_text', text: words }] }
      : { type: 'message', role, content: [{ type: 'output_text', text: words }] },
});

async function readBack(path: string) {
  const deferred = await readRolloutDeferred(path);
  const { entries, warnings } = await loadHistory(path, deferred.snapshot.history);
  const itemWarnings = await loadItems(path, deferred.snapshot.turns, deferred.snapshot.itemSlots);
  return { deferred, entries, warnings: [...warnings, ...itemWarnings] };
}

describe('the deferred read of a rollout', () => {
  it('gives the same history, turns, usage and preview as reading every line, through reverts and replacements', async () => {
    const written = writeSyntheticRollout({ home: tempDir(), turns: 120, toolOutputChars: 2500, imageEvery: 7, imageChars: 40_000 });
    const settings = (JSON.parse(readFileSync(written.path, 'utf8').split('\n')[2]!) as { settings: unknown }).settings;
    const turnIds = written.turnIds;
    const extra: RolloutLine[] = [
      { type: 'revert', beforeTurnId: turnIds[110]!, at: Date.now() },
      { type: 'turnStarted', turnId: 'after-revert', at: Date.now(), kind: 'regular', settings: settings as never },
      // A line in a form the writer does not give (keys in another order) is read at once, and kept.
      { entry: message('user', 'keys in another order'), turnId: 'after-revert', type: 'history' } as unknown as RolloutLine,
      { type: 'history', turnId: 'after-revert', entry: message('assistant', 'an answer') },
      { type: 'item', turnId: 'after-revert', item: { type: 'agentMessage', id: 'a1', text: 'an answer' } },
      { type: 'item', turnId: 'no-such-turn', item: { type: 'agentMessage', id: 'a2', text: 'dropped' } },
      { type: 'turnCompleted', turnId: 'after-revert', at: Date.now(), status: 'completed', error: null, durationMs: 5, usage: null },
    ];
    appendFileSync(written.path, extra.map((line) => `${JSON.stringify(line)}\n`).join(''));

    const eager = await readRollout({ kind: 'file', path: written.path });
    const { deferred, entries, warnings } = await readBack(written.path);
    expect(warnings).toEqual([]);
    expect(deferred.warnings).toEqual(eager.warnings);
    // Most of it was left in the file: every item line, and every history line after the first user message.
    expect(deferred.snapshot.history.filter((slot) => slot instanceof LineRef).length).toBe(eager.snapshot.history.length - 2);
    expect(entries).toEqual(eager.snapshot.history);
    expect(deferred.snapshot.historyTurnIds).toEqual(eager.snapshot.historyTurnIds);
    expect(deferred.snapshot.turns).toEqual(eager.snapshot.turns);
    expect(deferred.snapshot.turns.at(-1)!.items).toEqual([{ type: 'agentMessage', id: 'a1', text: 'an answer' }]);
    expect(deferred.snapshot.turns).toHaveLength(111);
    expect({ ...deferred.snapshot, history: null, itemSlots: null, turns: null }).toEqual({
      ...eager.snapshot,
      history: null,
      itemSlots: null,
      turns: null,
    });
    expect(deferred.snapshot.preview).toBe(written.preview);
    expect(deferred.tail).toEqual(eager.tail);
  });

  it('a torn last line is read at once and skipped with its warning, as in a full read', async () => {
    const written = writeSyntheticRollout({ home: tempDir(), turns: 3 });
    appendFileSync(written.path, `{"type":"item","turnId":"${written.turnIds[2]}","item":{"type":"agentMe`);
    const eager = await readRollout({ kind: 'file', path: written.path });
    const { deferred, warnings } = await readBack(written.path);
    expect(deferred.warnings).toEqual(eager.warnings);
    expect(deferred.warnings).toEqual([expect.stringContaining('cut off')]);
    expect(deferred.tail).toEqual(eager.tail);
    expect(warnings).toEqual([]);
    expect(deferred.snapshot.turns).toEqual(eager.snapshot.turns);
  });

  it('a line changed on disk since it was found is skipped, with where it was; the others come back', async () => {
    const written = writeSyntheticRollout({ home: tempDir(), turns: 4 });
    const deferred = await readRolloutDeferred(written.path);
    const refs = deferred.snapshot.history.filter((slot): slot is LineRef => slot instanceof LineRef);
    const broken = refs[2]!;
    const fd = openSync(written.path, 'r+');
    writeSync(fd, Buffer.from('#'.repeat(broken.length)), 0, broken.length, broken.offset);
    closeSync(fd);
    const { entries, warnings } = await loadHistory(written.path, deferred.snapshot.history);
    expect(warnings).toEqual([`the line at byte ${broken.offset} is no longer readable and was skipped`]);
    expect(entries).toHaveLength(deferred.snapshot.history.length - 1);
    expect(await loadHistory(`${written.path}.gone`, deferred.snapshot.history).catch((error: NodeJS.ErrnoException) => error.code)).toBe(
      'ENOENT',
    );
  });

  it('defers only item and history lines in the form the writer gives them', () => {
    const id = '0190a6c4-0000-7000-8000-0000000000aa';
    expect(deferrable(Buffer.from(`{"type":"item","turnId":"${id}","item":{"type":"agentMessage"}}`))).toEqual({
      kind: 'item',
      turnId: id,
    });
    expect(deferrable(Buffer.from(`{"type":"history","turnId":"${id}","entry":{"type":"item"}}`))).toEqual({ kind: 'history', turnId: id });
    expect(deferrable(Buffer.from('{"type":"history","turnId":null,"entry":{"type":"item"}}'))).toEqual({ kind: 'history', turnId: null });
    for (const other of [
      '{"type":"history","turnId":null}',
      '{"type":"history","turnId":nul',
      `{"type":"item","turnId":"${id}"}`,
      `{"type":"item","turnId":"${id}`,
      '{"type":"turnStarted","turnId":"x"}',
      `{"turnId":"${id}","type":"item","item":{}}`,
      '',
    ]) {
      expect(deferrable(Buffer.from(other))).toBeNull();
    }
  });
});

describe('a Session whose history is still being read', () => {
  let session: Session | null = null;
  afterEach(async () => {
    await session?.shutdown();
    session = null;
  });

  it('takes a turn once the history is in, and sends all of it', async () => {
    const model = new ScriptedModelClient();
    const log = new NotificationLog();
    let fill!: (entries: HistoryEntry[]) => void;
    const history = new Promise<HistoryEntry[]>((resolve) => (fill = resolve));
    session = new Session({
      config: testConfig(),
      modelClient: model,
      context: { model: 'm1', cwd: process.cwd(), approvalPolicy: 'never', sandboxPolicy: { type: 'dangerFullAccess' }, effort: null },
      emit: (n: ServerNotification) => log.push(n),
      requestApproval: async () => 'decline',
      initialHistory: history,
    });
    model.enqueue(textScript('the answer'));
    const { outcome } = await session.enqueueTurnInput(userInputRequest([text('next question')]), StartOrSteer);
    let decided = false;
    void outcome.then(() => (decided = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(decided).toBe(false);
    expect(model.requests).toHaveLength(0);
    fill([message('user', 'earlier question'), message('assistant', 'earlier answer')]);
    expect(await outcome).toMatchObject({ type: 'started' });
    await log.waitFor('turn/completed');
    expect(JSON.stringify(model.requests[0]!.input)).toMatch(/earlier question.*earlier answer.*next question/su);
  });
});
