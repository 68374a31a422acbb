import { describe, expect, it } from 'vitest';
import { EXEC_USAGE } from '../../src/runtime/exec/args.js';
import { childEnv, spawnTiller } from './support/spawn.js';

// The offline model streams word by word: slow enough that the answer comes after the reader left.
const offlineEnv = () => childEnv({ TILLER_OFFLINE_DELAY_MS: '20' });

describe('tiller exec as a command line', () => {
  it('--help prints the exec usage on stdout and exits 0', async () => {
    const child = spawnTiller(['exec', '--help'], offlineEnv());
    expect(await child.exit).toBe(0);
    expect(`${child.lines.join('\n')}\n`).toBe(EXEC_USAGE);
    expect(child.stderr()).toBe('');
  });

  it('a reader that closes stdout early (`| head -1`) ends it quietly with the turn’s exit code', async () => {
    const child = spawnTiller(['exec', '--json', 'hi'], offlineEnv());
    await child.waitForLine((line) => line.includes('thread.started'));
    child.proc.stdout.destroy();
    expect(await child.exit).toBe(0);
    expect(child.stderr()).not.toMatch(/EPIPE|Error|\n\s+at /);
  });

  it('in text mode too, when the final answer finds stdout closed', async () => {
    const child = spawnTiller(['exec', 'hi'], offlineEnv());
    child.proc.stdout.destroy();
    expect(await child.exit).toBe(0);
    expect(child.stderr()).not.toMatch(/EPIPE|Error|\n\s+at /);
  });
});
