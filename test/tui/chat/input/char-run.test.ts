/**
 * A paste in a terminal without bracketed paste is one key event per character in a read: the
 * controller hands the characters behind a buffering burst to the composer in one step, so the work
 * per read is a few store updates and one timer, not one of each per character.
 */
import { describe, expect, it } from 'vitest';
import { asciiCharRun } from '../../../../src/tui/chat/input/char-run.js';
import { ComposerTicks } from '../../../../src/tui/chat/input/composer-effects.js';
import { charKey, key, type InputEvent } from '../../../../src/tui/keys/types.js';
import { COMMAND_APPROVAL_PARAMS, createHarness, running } from '../harness.js';

function charEvents(text: string): InputEvent[] {
  return [...text].map((ch) => (ch === '\n' ? key('enter') : charKey(ch)));
}

function words(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `w${i} `;
  return out.slice(0, chars);
}

describe('asciiCharRun', () => {
  it('takes plain printable ASCII characters up to the first other event', () => {
    const events = [...charEvents('ab c'), charKey('x', { ctrl: true }), ...charEvents('de')];
    expect(asciiCharRun(events, 0)).toBe('ab c');
    expect(asciiCharRun(events, 2)).toBe(' c');
    expect(asciiCharRun(events, 4)).toBe('');
    expect(asciiCharRun([...charEvents('a'), charKey('é'), ...charEvents('b')], 0)).toBe('a');
    expect(asciiCharRun([charKey('a', { kind: 'release' })], 0)).toBe('');
  });
});

describe('a read of many characters', () => {
  it('becomes one paste in a few store updates, and the same draft as one key at a time', async () => {
    const text = words(200_000);
    const h = await createHarness();
    let updates = 0;
    const off = h.store.subscribe(() => (updates += 1));
    h.store.batch(() => {
      h.ctrl.handleInputs(charEvents(text), h.clock.now);
      h.ctrl.inputRead();
    });
    off();
    h.clock.advance(1_000);
    expect(h.composerText()).toBe('[Pasted Content 200000 chars]');
    expect(h.store.getState().composer.pendingPastes).toEqual([{ placeholder: '[Pasted Content 200000 chars]', text }]);
    expect(updates).toBe(1);

    const one = await createHarness();
    for (const event of charEvents(text.slice(0, 5_000))) one.ctrl.handleInput(event, one.clock.now);
    one.clock.advance(1_000);
    const run = await createHarness();
    run.ctrl.handleInputs(charEvents(text.slice(0, 5_000)), run.clock.now);
    run.clock.advance(1_000);
    expect(run.store.getState().composer).toEqual(one.store.getState().composer);
  });

  it('counts the composer steps: a handful per read, not one per character', async () => {
    const h = await createHarness();
    const composers = new Set<unknown>();
    const off = h.store.subscribe((s) => composers.add(s.composer));
    const read = charEvents(words(100_000));
    // Outside a batch each composer step reaches subscribers: how many steps the read took.
    h.ctrl.handleInputs(read, h.clock.now);
    off();
    expect(composers.size).toBeLessThan(10);
  });

  it('under the approval prompt a pasted line that begins with y goes into the draft and answers nothing', async () => {
    const h = await createHarness();
    await running(h);
    let decision: unknown;
    void h.client
      .serverRequest('item/commandExecution/requestApproval', COMMAND_APPROVAL_PARAMS)
      .then((r) => (decision = (r as { decision: unknown }).decision));
    h.clock.advance(2_000);
    const line = `yes ${words(3_000)}`;
    h.ctrl.handleInputs(charEvents(line), h.clock.now);
    h.clock.advance(1_000);
    await h.settle();
    expect(h.store.getState().modal).not.toBeNull();
    expect(decision).toBeUndefined();
    expect(h.store.getState().composer.pendingPastes.map((p) => p.text)).toEqual([line]);
  });
});

describe('ComposerTicks', () => {
  it('arms one timer for many asks, and re-arms only for an earlier one', () => {
    let now = 0;
    const armed: number[] = [];
    const cancelled: number[] = [];
    const ticks = new ComposerTicks(
      (_fn, ms) => {
        const id = armed.push(ms);
        return () => cancelled.push(id);
      },
      () => now,
      () => undefined,
    );
    for (let i = 0; i < 1_000; i++) ticks.schedule(9);
    now = 5;
    ticks.schedule(151);
    expect(armed).toEqual([9]);
    ticks.schedule(1);
    expect(armed).toEqual([9, 1]);
    expect(cancelled).toEqual([1]);
  });
});
