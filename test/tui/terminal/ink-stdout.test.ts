/** inkStdout: the height Ink is told, and each synchronized frame written to the terminal in one write. */
import { describe, expect, it } from 'vitest';
import { inkStdout, SYNC_BEGIN, SYNC_END } from '../../../src/tui/terminal/ink-stdout.js';

function fakeStdout(): { rows: number; writes: unknown[][]; write(...args: unknown[]): boolean } {
  return {
    rows: 24,
    writes: [],
    write(...args: unknown[]) {
      this.writes.push(args);
      return true;
    },
  };
}

describe('inkStdout', () => {
  it('tells Ink a height it never reaches and keeps the real one as screenRows', () => {
    const out = inkStdout(fakeStdout()) as ReturnType<typeof fakeStdout> & { screenRows: number };
    expect(out.rows).toBe(100_000);
    expect(out.screenRows).toBe(24);
  });

  it('writes what comes between the synchronized-update opener and closer as one write', () => {
    const target = fakeStdout();
    const out = inkStdout(target);
    out.write(SYNC_BEGIN);
    out.write('\x1b[2Kerase');
    out.write('rows\r\n');
    expect(target.writes).toEqual([]);
    out.write(SYNC_END);
    expect(target.writes).toEqual([[`${SYNC_BEGIN}\x1b[2Keraserows\r\n${SYNC_END}`]]);
    out.write('outside a frame');
    expect(target.writes.at(-1)).toEqual(['outside a frame']);
  });

  it('a write with a callback is not held, and goes after what was', () => {
    const target = fakeStdout();
    const out = inkStdout(target);
    const done = (): void => undefined;
    out.write(SYNC_BEGIN);
    out.write('frame');
    out.write('bytes', done);
    expect(target.writes).toEqual([[`${SYNC_BEGIN}frame`], ['bytes', done]]);
  });

  it('a frame whose closer never comes still goes out once the stretch of work ends', async () => {
    const target = fakeStdout();
    const out = inkStdout(target);
    out.write(SYNC_BEGIN);
    out.write('half a frame');
    expect(target.writes).toEqual([]);
    await Promise.resolve();
    expect(target.writes).toEqual([[`${SYNC_BEGIN}half a frame`]]);
  });
});
