import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { initialComposerState } from '../../../src/tui/composer/state.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { ALT_SCREEN_OFF, ALT_SCREEN_ON, attachTranscriptPager } from '../../../src/tui/overlay/pager-screen.js';
import { createChatStore, withCells } from '../../../src/tui/store.js';

class FakeTerminal extends EventEmitter {
  readonly writes: string[] = [];
  constructor(
    public columns = 60,
    public rows = 6,
  ) {
    super();
  }
  write(data: string): boolean {
    this.writes.push(data);
    return true;
  }
  get output(): string {
    return this.writes.join('');
  }
}

function setup() {
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
  store.setState((s) =>
    withCells(
      s,
      Array.from({ length: 10 }, (_, i) => ({ kind: 'info' as const, text: `note ${i + 1}` })),
    ),
  );
  const terminal = new FakeTerminal();
  const pager = attachTranscriptPager(store, terminal);
  return { store, terminal, pager };
}

describe('the transcript pager on screen', () => {
  it('leaves keys to the chat while closed', () => {
    const { pager, terminal } = setup();
    expect(pager.handleInput(charKey('q'))).toBe(false);
    expect(terminal.writes).toEqual([]);
  });

  it('opens on the alternate screen with the end of the transcript, scrolls with keys and closes with q', () => {
    const { store, terminal, pager } = setup();
    store.setState({ pager: { top: null } });
    expect(terminal.writes[0]).toBe(ALT_SCREEN_ON);
    expect(terminal.output).toContain('• note 10');
    expect(terminal.output).not.toContain('• note 1\x1b');
    expect(pager.handleInput(charKey('g'))).toBe(true);
    expect(store.getState().pager).toEqual({ top: 0 });
    expect(terminal.writes.at(-1)).toContain('• note 1\x1b[K');
    expect(pager.handleInput(charKey('q'))).toBe(true);
    expect(store.getState().pager).toBeNull();
    expect(terminal.writes.at(-1)).toBe(ALT_SCREEN_OFF);
  });

  it('redraws when the transcript grows and when the terminal is resized', () => {
    const { store, terminal } = setup();
    store.setState({ pager: { top: null } });
    store.setState((s) => withCells(s, [{ kind: 'info', text: 'arrived' }]));
    expect(terminal.writes.at(-1)).toContain('• arrived');
    const count = terminal.writes.length;
    terminal.rows = 10;
    terminal.emit('resize');
    expect(terminal.writes.length).toBe(count + 1);
    expect(terminal.writes.at(-1)).toContain('\x1b[10;1H');
  });

  it('gives the keys back while an approval prompt is up; dispose leaves the alternate screen once', () => {
    const { store, terminal, pager } = setup();
    store.setState({ pager: { top: null } });
    store.setState({ modal: { kind: 'approval', command: 'ls', cwd: '/', reason: null } });
    expect(pager.handleInput(key('up'))).toBe(false);
    pager.dispose();
    pager.dispose();
    expect(terminal.writes.filter((w) => w === ALT_SCREEN_OFF)).toHaveLength(1);
  });
});
