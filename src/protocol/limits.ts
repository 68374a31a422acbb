/**
 * The user-input text limit (docs/codex-parity.md#the-text-limit): 1<<20 Unicode code points summed over all text
 * items; equality is allowed. The TUI and the app server word the rejection differently.
 */
import { MAX_USER_INPUT_TEXT_CHARS, type UserInput } from './user-input.js';

/** Unicode code points (Rust `chars().count()`), not UTF-16 units: '😀' counts 1. */
export function countChars(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; lone surrogates count one each.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Code points over all text items; other items count 0. */
export function textCharCount(inputs: readonly UserInput[]): number {
  let total = 0;
  for (const input of inputs) if (input.type === 'text') total += countChars(input.text);
  return total;
}

export function exceedsLimit(actualChars: number, maxChars: number = MAX_USER_INPUT_TEXT_CHARS): boolean {
  return actualChars > maxChars;
}

/** The composer's error cell (the draft is restored). */
export function tuiTooLargeMessage(actualChars: number, maxChars: number = MAX_USER_INPUT_TEXT_CHARS): string {
  return `Message exceeds the maximum length of ${maxChars} characters (${actualChars} provided).`;
}

export const INPUT_TOO_LARGE_ERROR_CODE = 'input_too_large';

export interface InputTooLargeData {
  input_error_code: typeof INPUT_TOO_LARGE_ERROR_CODE;
  max_chars: number;
  actual_chars: number;
}

/** The app server's JSON-RPC error (code -32602, invalid params) message. */
export function appServerTooLargeMessage(maxChars: number = MAX_USER_INPUT_TEXT_CHARS): string {
  return `Input exceeds the maximum length of ${maxChars} characters.`;
}

export function appServerTooLargeData(actualChars: number, maxChars: number = MAX_USER_INPUT_TEXT_CHARS): InputTooLargeData {
  return { input_error_code: INPUT_TOO_LARGE_ERROR_CODE, max_chars: maxChars, actual_chars: actualChars };
}

/** The whole app-server rejection, or null when the inputs are within the limit. */
export function checkInputTextLimit(
  inputs: readonly UserInput[],
  maxChars: number = MAX_USER_INPUT_TEXT_CHARS,
): { code: -32602; message: string; data: InputTooLargeData } | null {
  const actual = textCharCount(inputs);
  if (!exceedsLimit(actual, maxChars)) return null;
  return { code: -32602, message: appServerTooLargeMessage(maxChars), data: appServerTooLargeData(actual, maxChars) };
}
