import { describe, expect, it, vi } from 'vitest';
import { Driver } from './driver.js';

// No built-in command takes inline arguments yet; pretend /diff does to pin `/name rest` → commandWithArgs
// (docs/codex-parity.md#submission-preparation, step 3).
vi.mock('../../../src/tui/composer/slash-commands.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/tui/composer/slash-commands.js')>();
  return {
    ...real,
    findCommand: (name: string) => {
      const cmd = real.findCommand(name);
      return cmd?.name === 'diff' ? { ...cmd, supportsInlineArgs: true } : cmd;
    },
  };
});

describe('commands with inline arguments', () => {
  it('`/name args` dispatches with trimmed args and elements rebased into them', () => {
    const d = new Driver();
    d.type('/diff ');
    d.paste('z'.repeat(1001));
    d.type('  ');
    d.send({ type: 'attach', attachment: { kind: 'image', path: '/a.png', fileName: 'a.png', bytes: 1, width: 1, height: 1, mime: 'image/png' } });
    d.settle();
    d.enter();
    const args = `${'z'.repeat(1001)}  [Image #1]`;
    expect(d.lastResult()).toEqual({
      type: 'commandWithArgs',
      command: 'diff',
      args,
      argsElements: [{ byte_range: { start: 1003, end: 1013 }, placeholder: '[Image #1]' }],
    });
    expect(d.text).toBe('');
  });

  it('with nothing after the name it is a bare command', () => {
    const d = new Driver();
    d.type('/diff');
    d.settle();
    d.key('escape');
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
  });
});
