import { describe, expect, it } from 'vitest';
import {
  appServerTooLargeData,
  appServerTooLargeMessage,
  checkInputTextLimit,
  countChars,
  exceedsLimit,
  textCharCount,
  tuiTooLargeMessage,
} from '../../src/protocol/limits.js';
import { MAX_USER_INPUT_TEXT_CHARS, type UserInput } from '../../src/protocol/user-input.js';

const text = (t: string): UserInput => ({ type: 'text', text: t, text_elements: [] });

describe('character limit', () => {
  it('is 1<<20', () => {
    expect(MAX_USER_INPUT_TEXT_CHARS).toBe(1_048_576);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(countChars('abc')).toBe(3);
    expect(countChars('中文')).toBe(2);
    expect(countChars('😀')).toBe(1);
    expect(countChars('👨‍👩‍👧')).toBe(5); // three emoji and two ZWJ, as Rust chars()
    expect(countChars('a\ud800')).toBe(2); // a lone surrogate counts once
  });

  it('allows exactly the limit in astral characters and rejects one more', () => {
    const atLimit = '😀'.repeat(MAX_USER_INPUT_TEXT_CHARS);
    expect(atLimit.length).toBe(2 * MAX_USER_INPUT_TEXT_CHARS);
    expect(countChars(atLimit)).toBe(MAX_USER_INPUT_TEXT_CHARS);
    expect(exceedsLimit(countChars(atLimit))).toBe(false);
    expect(checkInputTextLimit([text(atLimit)])).toBeNull();
    expect(exceedsLimit(countChars(`${atLimit}😀`))).toBe(true);
    expect(checkInputTextLimit([text(`${atLimit}😀`)])?.data.actual_chars).toBe(MAX_USER_INPUT_TEXT_CHARS + 1);
  });

  it('sums over all text items only; other items count 0', () => {
    const half = 'x'.repeat(MAX_USER_INPUT_TEXT_CHARS / 2);
    const inputs: UserInput[] = [text(half), { type: 'mention', name: 'm', path: 'mcp://server' }, text(half)];
    expect(textCharCount(inputs)).toBe(MAX_USER_INPUT_TEXT_CHARS);
    expect(checkInputTextLimit(inputs)).toBeNull();
    expect(checkInputTextLimit([...inputs, text('y')])).toEqual({
      code: -32602,
      message: 'Input exceeds the maximum length of 1048576 characters.',
      data: { input_error_code: 'input_too_large', max_chars: 1048576, actual_chars: 1048577 },
    });
  });

  it('words the TUI and app-server rejections as Codex', () => {
    expect(tuiTooLargeMessage(1048577)).toBe('Message exceeds the maximum length of 1048576 characters (1048577 provided).');
    expect(appServerTooLargeMessage()).toBe('Input exceeds the maximum length of 1048576 characters.');
    expect(appServerTooLargeData(5, 4)).toEqual({ input_error_code: 'input_too_large', max_chars: 4, actual_chars: 5 });
  });
});
