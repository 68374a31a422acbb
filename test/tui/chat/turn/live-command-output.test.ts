/**
 * A running command's output on screen keeps its start and its latest part, whatever it prints:
 * the memory and each frame's work stay bounded, and nothing is cut inside a character.
 */
import { describe, expect, it } from 'vitest';
import {
  appendOutput,
  keptOutput,
  latestOutput,
  LIVE_OUTPUT_HEAD,
  LIVE_OUTPUT_TAIL,
  NO_OUTPUT,
} from '../../../../src/tui/chat/turn/live-command-output.js';

describe('live command output', () => {
  it('keeps all of a short output, the latest part being all of it', () => {
    const out = appendOutput(appendOutput(NO_OUTPUT, 'one\n'), 'two\n');
    expect(keptOutput(out)).toBe('one\ntwo\n');
    expect(latestOutput(out)).toEqual({ text: 'one\ntwo\n', more: false });
  });

  it('keeps the start and the latest part of megabytes, and counts what lies between', () => {
    let out = NO_OUTPUT;
    let all = '';
    for (let i = 0; i < 5_000; i++) {
      const piece = `line ${i} ${'x'.repeat(300)}\n`;
      all += piece;
      out = appendOutput(out, piece);
    }
    expect(out.head).toBe(all.slice(0, LIVE_OUTPUT_HEAD));
    expect(out.tail).toBe(all.slice(-LIVE_OUTPUT_TAIL));
    expect(out.head.length + out.omitted + out.tail.length).toBe(all.length);
    expect(latestOutput(out)).toEqual({ text: all.slice(-LIVE_OUTPUT_TAIL), more: true });
    // The head ends inside a line: the tail starts on a line of its own.
    expect(out.head.endsWith('\n')).toBe(false);
    expect(keptOutput(out)).toBe(`${out.head}\n${out.tail}`);
  });

  it('never starts the latest part with half a surrogate pair', () => {
    let out = NO_OUTPUT;
    for (let i = 0; i < 40_000; i++) out = appendOutput(out, '😀');
    const first = out.tail.charCodeAt(0);
    expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
    expect(latestOutput(out).text.startsWith('😀')).toBe(true);
  });
});
