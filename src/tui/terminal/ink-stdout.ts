/**
 * The stdout Ink draws to. Ink takes a frame as tall as `stdout.rows` for a full-screen app and then
 * clears the terminal and its scrollback (`ESC [ 3 J`) on every frame; Tiller's live area is sized to
 * stay shorter, but a tiny window (8 rows) or a frame drawn before a resize is laid out can reach it,
 * and the transcript in the scrollback would be gone. So Ink is told a height it never reaches; the
 * screen's real height is `screenRows`.
 */
const UNREACHABLE_ROWS = 100_000;

export function inkStdout<T extends object>(stdout: T): T {
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'rows') return UNREACHABLE_ROWS;
      if (property === 'screenRows') return (target as { rows?: number }).rows;
      return Reflect.get(target, property, target) as unknown;
    },
  });
}
