/**
 * How a control character is shown instead of being sent to the terminal: C0 as `^X` (ESC as `^[`),
 * DEL as `^?`, C1 as `<9b>`. One notation for the transcript (markdown.ts `sanitize`), the composer and
 * `tiller exec`'s text output.
 */
export const CONTROL_CHAR = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function visibleControl(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
  return `<${code.toString(16)}>`;
}

/** `text` with every control character but tab and line feed shown in that notation. */
export function showControlChars(text: string): string {
  return text.replace(CONTROL_CHAR, visibleControl);
}
