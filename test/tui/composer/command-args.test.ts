/** Slash commands with inline arguments (/rename NAME, /stop ID, /export PATH): only those take them. */
import { describe, expect, it } from 'vitest';
import { takesArgs } from '../../../src/tui/composer/slash-commands.js';
import { Driver } from './driver.js';

function enter(text: string): Driver {
  const d = new Driver();
  d.type(text);
  d.settle();
  d.enter();
  return d;
}

describe('slash commands with arguments', () => {
  it('/rename NAME dispatches with the words after the name and clears the draft', () => {
    const d = enter('/rename  bug hunt ');
    expect(d.lastResult()).toEqual({ type: 'command', command: 'rename', args: 'bug hunt' });
    expect(d.text).toBe('');
  });

  it('/export PATH --json and /stop ID carry their arguments; bare, they dispatch without', () => {
    expect(enter('/export notes.md --json').lastResult()).toEqual({ type: 'command', command: 'export', args: 'notes.md --json' });
    expect(enter('/stop 4242').lastResult()).toEqual({ type: 'command', command: 'stop', args: '4242' });
    expect(enter('/ps').lastResult()).toEqual({ type: 'command', command: 'ps' });
  });

  it('a command that takes no arguments, followed by text, is submitted as text (as before)', () => {
    expect(takesArgs('new')).toBe(false);
    expect(enter('/new foo').lastResult()).toMatchObject({ type: 'submitted', text: '/new foo' });
  });
});
