/** The model's questions above the composer (chat/questions/): keys, answers, cancellation. */
import { describe, expect, it } from 'vitest';
import type { ServerNotification } from '../../../src/protocol/api.js';
import { questionLines } from '../../../src/tui/chat/questions/question-lines.js';
import { QuestionQueue, type UserInputParams } from '../../../src/tui/chat/questions/question-queue.js';
import { defaultChalk } from '../../../src/tui/components/row-shapes.js';
import { createChatStore } from '../../../src/tui/store.js';
import { initialComposerState } from '../../../src/tui/composer/state.js';
import type { KeyEvent } from '../../../src/tui/keys/types.js';

const key = (name: KeyEvent['name'], char?: string): KeyEvent => ({
  type: 'key',
  name,
  ...(char === undefined ? {} : { char }),
  ctrl: false,
  alt: false,
  shift: false,
  meta: false,
  kind: 'press',
});

const params = (count = 1): UserInputParams => ({
  threadId: 't',
  turnId: 'u',
  itemId: 'c',
  isBlocking: true,
  autoResolutionMs: null,
  questions: Array.from({ length: count }, (_, i) => ({
    id: `q${i}`,
    header: `H${i}`,
    question: `Question ${i}?`,
    isOther: true,
    isSecret: false,
    options: [
      { label: 'Yes', description: 'do it' },
      { label: 'No', description: '' },
    ],
  })),
});

function setup() {
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
  const listeners: Array<(n: ServerNotification) => void> = [];
  const queue = new QuestionQueue(store, { onNotification: (l) => (listeners.push(l), () => undefined) });
  return { store, queue, notify: (n: ServerNotification) => listeners.forEach((l) => l(n)) };
}

describe('QuestionQueue', () => {
  it('moves with the arrows, answers with Enter and a digit, one question after the other', async () => {
    const { store, queue } = setup();
    const answered = queue.request(params(2));
    expect(store.getState().question).toMatchObject({ header: 'H0', number: 1, count: 2, selected: 0 });
    expect(queue.key(key('down'), true)).toBe(true);
    expect(store.getState().question?.selected).toBe(1);
    expect(queue.key(key('enter'), true)).toBe(true);
    expect(store.getState().question).toMatchObject({ header: 'H1', number: 2, selected: 0 });
    expect(queue.key(key('char', '1'), true)).toBe(true);
    await expect(answered).resolves.toEqual({ answers: { q0: { answers: ['No'] }, q1: { answers: ['Yes'] } } });
    expect(store.getState().question).toBeNull();
  });

  it('leaves every key to the draft while it has text, and a digit past the options alone', () => {
    const { queue } = setup();
    void queue.request(params());
    expect(queue.key(key('enter'), false)).toBe(false);
    expect(queue.key(key('char', '1'), false)).toBe(false);
    expect(queue.key(key('char', '9'), true)).toBe(false);
    expect(queue.key(key('char', 'a'), true)).toBe(false);
  });

  it('Esc skips a question; the end of its turn cancels what still waits', async () => {
    const { store, queue, notify } = setup();
    const skipped = queue.request(params());
    queue.key(key('escape'), true);
    await expect(skipped).resolves.toEqual({ answers: {} });
    const waiting = queue.request(params());
    notify({
      method: 'turn/completed',
      params: {
        threadId: 't',
        turn: { id: 'u', items: [], itemsView: 'notLoaded', status: 'completed', error: null, startedAt: 0, completedAt: 1, durationMs: 1 },
      },
    });
    await expect(waiting).rejects.toThrow('cancelled');
    expect(store.getState().question).toBeNull();
  });

  it('draws the header, the question, numbered options with the highlighted one marked, and the keys', () => {
    const { store, queue } = setup();
    void queue.request(params());
    const rows = questionLines(store.getState().question!, 60, defaultChalk).map((r) => r.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(rows[0]).toBe('? H0');
    expect(rows[1]).toBe('  Question 0?');
    expect(rows[2]).toBe('› 1. Yes — do it');
    expect(rows[3]).toBe('  2. No');
    expect(rows.slice(4).join(' ')).toContain('Esc skip');
  });
});
