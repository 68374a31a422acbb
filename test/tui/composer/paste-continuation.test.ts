/**
 * A large paste in a terminal without bracketed paste arrives in pieces; a pause between two that
 * outlasts the detector's wait must not split it into two placeholders (input.ts `insertBurst`).
 */
import { describe, expect, it } from 'vitest';
import { PASTE_CONTINUATION_MS } from '../../../src/tui/composer/input.js';
import { LARGE_BURST_IDLE_MS } from '../../../src/tui/composer/paste-burst.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { Driver } from './driver.js';

/** `text` as keys 0 ms apart (one read), then the detector's wait for more runs out. */
function piece(d: Driver, text: string, gapBeforeMs: number): void {
  d.type(text.slice(0, 1), gapBeforeMs);
  d.type(text.slice(1), 0);
  d.tick(LARGE_BURST_IDLE_MS + 1);
}

function placeholders(d: Driver): string[] {
  return d.text.match(/\[Pasted Content \d+ chars\]( #\d+)?/gu) ?? [];
}

function submitted(d: Driver): string | undefined {
  d.enter(1_000);
  const r = d.lastResult();
  return r?.type === 'submitted' ? r.text : undefined;
}

const FIRST = 'a'.repeat(3_000);
const SECOND = 'b'.repeat(2_000);

describe('a paste split by a pause', () => {
  it('joins the placeholder it follows: one label of the whole size, sent whole', () => {
    const d = new Driver({ platform: 'linux' });
    piece(d, FIRST, 1_000);
    expect(d.text).toBe('[Pasted Content 3000 chars]');
    piece(d, SECOND, 300);
    expect(placeholders(d)).toEqual(['[Pasted Content 5000 chars]']);
    expect(d.state.pendingPastes).toEqual([{ placeholder: '[Pasted Content 5000 chars]', text: FIRST + SECOND }]);
    expect(d.cursor).toBe(d.text.length);
    expect(submitted(d)).toBe(FIRST + SECOND);
  });

  it('a short last piece joins too, instead of trailing the placeholder as text', () => {
    const d = new Driver({ platform: 'linux' });
    piece(d, FIRST, 1_000);
    piece(d, 'b'.repeat(40), 200);
    expect(d.text).toBe('[Pasted Content 3040 chars]');
    expect(submitted(d)).toBe(FIRST + 'b'.repeat(40));
  });

  it('stays two pastes after a longer pause, or when the draft changed between them', () => {
    const late = new Driver({ platform: 'linux' });
    piece(late, FIRST, 1_000);
    piece(late, SECOND, PASTE_CONTINUATION_MS + 50);
    expect(placeholders(late)).toEqual(['[Pasted Content 3000 chars]', '[Pasted Content 2000 chars]']);

    const typed = new Driver({ platform: 'linux' });
    piece(typed, FIRST, 1_000);
    typed.key('left', {}, 20);
    typed.key('right', {}, 20);
    piece(typed, SECOND, 20);
    expect(placeholders(typed)).toEqual(['[Pasted Content 3000 chars]', '[Pasted Content 2000 chars]']);
    expect(submitted(typed)).toBe(FIRST + SECOND);
  });

  it('a character typed after the placeholder stays typed, even read together with the next key', () => {
    const d = new Driver({ platform: 'linux' });
    piece(d, FIRST, 1_000);
    d.send(charKey('x'), 200);
    d.key('left', {}, 1);
    expect(d.text).toBe('[Pasted Content 3000 chars]x');
    expect(d.state.pendingPastes).toEqual([{ placeholder: '[Pasted Content 3000 chars]', text: FIRST }]);
  });

  it('a second paste of the same size after the joined one still takes the next label', () => {
    const d = new Driver({ platform: 'linux' });
    d.paste('c'.repeat(5_000));
    piece(d, FIRST, 2_000);
    piece(d, SECOND, 100);
    expect(placeholders(d)).toEqual(['[Pasted Content 5000 chars]', '[Pasted Content 5000 chars] #2']);
    expect(submitted(d)).toBe('c'.repeat(5_000) + FIRST + SECOND);
  });
});
