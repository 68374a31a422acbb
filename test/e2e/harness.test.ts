import { afterEach, describe, expect, it } from 'vitest';
import { startTiller, type TillerPty } from '../support/pty.js';

let pty: TillerPty | null = null;
afterEach(() => {
  pty?.kill();
  pty = null;
});

describe('pty harness', () => {
  it('reads the screen and the exit code of the real bin', async () => {
    pty = startTiller({ args: ['--version'] });
    await pty.waitFor(/tiller \d+\.\d+\.\d+/);
    expect(await pty.waitForExit()).toBe(0);
  });

  it('reports an unknown option with exit code 2', async () => {
    pty = startTiller({ args: ['--frobnicate'] });
    await pty.waitFor("tiller: unknown option '--frobnicate'. Try 'tiller --help'.");
    expect(await pty.waitForExit()).toBe(2);
  });

  it('frameCursor waits out a half-drawn synchronized frame and gives where the whole frame left the cursor', async () => {
    // A frame that moves the cursor away, pauses, then puts it back at row 3, column 5 and closes.
    const program = [
      "process.stdout.write('\\x1b[?2026h\\x1b[10;20Hmid-frame');",
      "setTimeout(() => process.stdout.write('\\x1b[3;5H\\x1b[?2026l'), 1500);",
      'setTimeout(() => {}, 5000);',
    ].join('');
    pty = startTiller({ command: [process.execPath, '-e', program] });
    // Output paused inside the frame: waitFor takes the steady match, the cursor is where the frame left it so far.
    await pty.waitFor('mid-frame');
    expect(pty.cursor()).toEqual({ x: 28, y: 9 });
    expect(await pty.frameCursor()).toEqual({ x: 4, y: 2 });
  });
});
