/**
 * A depth limit for JSON input. Deeper structures would overflow recursive code further on
 * (validators, JSON.stringify when a rollout line or a request is written), so they are refused
 * where they come in, by a walk that is itself iterative.
 */

/** As serde_json's recursion limit (the parser of Codex's app server): the outermost value is level 1. */
export const MAX_JSON_DEPTH = 128;

interface Frame {
  container: object;
  /** An array's length, or an object's keys. */
  keys: number | string[];
  next: number;
}

function frameOf(value: object): Frame {
  return { container: value, keys: Array.isArray(value) ? value.length : Object.keys(value), next: 0 };
}

/**
 * The path to the first array or object nested deeper than `limit` levels, or null when none is.
 * Takes time linear in the size of the value, and no stack.
 */
export function tooDeepPath(value: unknown, limit: number = MAX_JSON_DEPTH): Array<string | number> | null {
  if (typeof value !== 'object' || value === null) return null;
  if (limit < 1) return [];
  const frames: Frame[] = [frameOf(value)];
  const path: Array<string | number> = [];
  while (frames.length > 0) {
    const frame = frames.at(-1)!;
    const count = typeof frame.keys === 'number' ? frame.keys : frame.keys.length;
    if (frame.next >= count) {
      frames.pop();
      path.pop();
      continue;
    }
    const key = typeof frame.keys === 'number' ? frame.next : frame.keys[frame.next]!;
    frame.next++;
    const child = (frame.container as Record<string | number, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    path.push(key);
    if (frames.length >= limit) return path;
    frames.push(frameOf(child));
  }
  return null;
}

export const TOO_DEEP_PROBLEM = `nested deeper than ${MAX_JSON_DEPTH} levels`;

/** Where a value too deep is, as `format` writes a path: its first levels only, then `…`. */
export function tooDeepWhere(path: ReadonlyArray<string | number>, format: (path: ReadonlyArray<string | number>) => string): string {
  const shown = path.slice(0, 6);
  return `${format(shown)}${path.length > shown.length ? '…' : ''}`;
}
