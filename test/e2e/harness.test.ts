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
});
