/**
 * The stdout Ink draws to. Ink takes a frame as tall as `stdout.rows` for a full-screen app and then
 * clears the terminal and its scrollback (`ESC [ 3 J`) on every frame; Tiller's live area is sized to
 * stay shorter, but a tiny window (8 rows) or a frame drawn before a resize is laid out can reach it,
 * and the transcript in the scrollback would be gone. So Ink is told a height it never reaches; the
 * screen's real height is `screenRows`.
 *
 * Ink also writes each frame in pieces: the synchronized-update opener, the erase and the rows, the
 * closer, each its own write(2), and the terminal can read and paint between them. What Ink writes
 * between the opener and the closer (always in one synchronous stretch) goes out as one write.
 */
const UNREACHABLE_ROWS = 100_000;

/** Synchronized update (mode 2026) begin and end, as Ink writes them. */
export const SYNC_BEGIN = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

export function inkStdout<T extends object>(stdout: T): T {
  let held: string[] | null = null;
  const real = (): Write => (Reflect.get(stdout, 'write', stdout) as Write).bind(stdout);
  const release = (): boolean => {
    if (held === null) return true;
    const frame = held.join('');
    held = null;
    return real()(frame);
  };
  const write: Write = (chunk, ...rest) => {
    if (rest.length > 0 || typeof chunk !== 'string') {
      // A callback or an encoding: not one of Ink's frame pieces; what is held goes first.
      release();
      return real()(chunk, ...rest);
    }
    if (chunk === SYNC_BEGIN) {
      release();
      held = [chunk];
      // Should the closer never come (an error mid-frame), the frame still goes out.
      queueMicrotask(release);
      return true;
    }
    if (held === null) return real()(chunk);
    held.push(chunk);
    return chunk === SYNC_END ? release() : true;
  };
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'rows') return UNREACHABLE_ROWS;
      if (property === 'screenRows') return (target as { rows?: number }).rows;
      if (property === 'write') return write;
      return Reflect.get(target, property, target) as unknown;
    },
  });
}
