import { describe, expect, it } from 'vitest';
import { OutputDeltaCoalescer, type Schedule, utf8Prefix, utf8Suffix } from '../../src/runtime/commands/output-deltas.js';

/** 2,000 seeded texts of up to 40 characters (multibyte, astral, lone surrogates) with byte budgets up to 30. */
function budgetCases(seed: number): Array<{ text: string; max: number }> {
  const pieces = ['a', 'é', '中', '👍', '\ud83d', '\ude00', ' '];
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: 2_000 }, () => {
    const text = Array.from({ length: Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
    return { text, max: Math.floor(next() * 30) };
  });
}

/** A hand-driven clock: `tick()` runs the timer that is due, as setTimeout would. */
function manualClock(): { schedule: Schedule; tick: () => void; armed: () => number; delays: number[] } {
  let timers: Array<() => void> = [];
  const delays: number[] = [];
  return {
    schedule: (run, ms) => {
      timers.push(run);
      delays.push(ms);
      return () => {
        timers = timers.filter((t) => t !== run);
      };
    },
    tick: () => {
      const due = timers;
      timers = [];
      for (const run of due) run();
    },
    armed: () => timers.length,
    delays,
  };
}

function setup(options: { chunkBytes?: number; limitBytes?: number } = {}) {
  const sent: string[] = [];
  const clock = manualClock();
  const deltas = new OutputDeltaCoalescer({ send: (d) => sent.push(d), schedule: clock.schedule, ...options });
  return { sent, clock, deltas };
}

describe('OutputDeltaCoalescer', () => {
  it('coalesces the reads of one interval into one delta, sent when the interval ends', () => {
    const { sent, clock, deltas } = setup();
    deltas.push('a');
    deltas.push('b');
    deltas.push('c');
    expect(sent).toEqual([]);
    expect(clock.armed()).toBe(1);
    expect(clock.delays).toEqual([50]);
    clock.tick();
    expect(sent).toEqual(['abc']);
    deltas.push('d');
    clock.tick();
    expect(sent).toEqual(['abc', 'd']);
  });

  it('sends at once when a chunk is full, and flush() sends the rest and cancels the timer', () => {
    const { sent, clock, deltas } = setup({ chunkBytes: 4 });
    deltas.push('ab');
    deltas.push('cd');
    expect(sent).toEqual(['abcd']);
    expect(clock.armed()).toBe(0);
    deltas.push('e');
    deltas.flush();
    expect(sent).toEqual(['abcd', 'e']);
    expect(clock.armed()).toBe(0);
    deltas.flush();
    expect(sent).toHaveLength(2);
  });

  it('past the head, each interval sends only the latest output, never cutting a character', () => {
    const { sent, clock, deltas } = setup({ chunkBytes: 5, limitBytes: 6 });
    deltas.push('abcé');
    deltas.push('€xyz');
    expect(sent).toEqual(['abcé']);
    deltas.push('more');
    expect(sent).toEqual(['abcé']);
    clock.tick();
    // '€xyzmore' is 10 bytes; the latest 5 are kept.
    expect(sent).toEqual(['abcé', 'zmore']);
    deltas.push('€€');
    deltas.flush();
    expect(sent).toEqual(['abcé', 'zmore', '€']);
  });

  it('a megabyte of output becomes the cap’s head plus one latest chunk', () => {
    const { sent, deltas } = setup();
    for (let i = 0; i < 16; i++) deltas.push('x'.repeat(64 * 1024));
    deltas.flush();
    expect(sent.map((d) => d.length)).toEqual([10 * 1024, 8 * 1024]);
  });

  it('utf8Suffix keeps whole characters within the byte budget', () => {
    expect(utf8Suffix('aé€😀', 3)).toBe('');
    expect(utf8Suffix('aé€😀', 4)).toBe('😀');
    expect(utf8Suffix('aé€😀', 8)).toBe('€😀');
    expect(utf8Suffix('aé€😀', 9)).toBe('é€😀');
    expect(utf8Suffix('aé€😀', 10)).toBe('aé€😀');
  });

  it('utf8Prefix keeps whole characters within the byte budget', () => {
    expect(utf8Prefix('aé€😀', 1)).toBe('a');
    expect(utf8Prefix('aé€😀', 2)).toBe('a');
    expect(utf8Prefix('aé€😀', 3)).toBe('aé');
    expect(utf8Prefix('aé€😀', 9)).toBe('aé€');
    expect(utf8Prefix('aé€😀', 10)).toBe('aé€😀');
  });

  it('utf8Prefix is the longest prefix of whole characters that fits, for any text (surrogates, lone ones, multibyte)', () => {
    const reference = (text: string, maxBytes: number): string => {
      let bytes = 0;
      let out = '';
      for (const char of text) {
        if (bytes + Buffer.byteLength(char) > maxBytes) break;
        bytes += Buffer.byteLength(char);
        out += char;
      }
      return out;
    };
    for (const { text, max } of budgetCases(11)) expect(utf8Prefix(text, max), JSON.stringify({ text, max })).toBe(reference(text, max));
  });
});

describe('utf8Suffix', () => {
  /** The definition: whole characters from the end while they fit. */
  const reference = (text: string, maxBytes: number): string => {
    const chars = Array.from(text);
    let bytes = 0;
    let start = chars.length;
    while (start > 0 && bytes + Buffer.byteLength(chars[start - 1]!) <= maxBytes) bytes += Buffer.byteLength(chars[--start]!);
    return chars.slice(start).join('');
  };

  it('keeps the whole characters that fit, from the end, for any text (surrogates, lone ones, multibyte)', () => {
    for (const { text, max } of budgetCases(7)) expect(utf8Suffix(text, max), JSON.stringify({ text, max })).toBe(reference(text, max));
  });
});
