import { describe, expect, it } from 'vitest';
import { composerWindow, layoutScreen, type ScreenLayout, type ScreenParts } from '../../src/tui/layout-screen.js';

const rowsOf = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function parts(over: Partial<ScreenParts> = {}): ScreenParts {
  return {
    rows: 24,
    commands: [],
    status: [],
    pending: null,
    modal: null,
    attachments: [],
    composer: { rows: ['› Ask'], caret: { row: 0, col: 2 }, empty: true },
    popup: [],
    footer: 'footer',
    ...over,
  };
}

/** Every row of the live area under the tail. */
function under(layout: ScreenLayout): number {
  const { commands, status, pending, modal, attachments, composer, popup, footer } = layout;
  return [commands, status, pending, modal, attachments, composer, popup, footer].reduce((n, rows) => n + rows.length, 0);
}

/** What each builder was asked for, and rows that fill it. */
function filling(prefix: string): { build: (room: number) => string[]; rooms: number[] } {
  const rooms: number[] = [];
  return { rooms, build: (room) => (rooms.push(room), ['', ...rowsOf(prefix, Math.max(0, room - 1))]) };
}

describe('layoutScreen', () => {
  it('idle: the composer between a blank row and the footer, the rest for the answer, the caret after the prompt', () => {
    const layout = layoutScreen(parts());
    expect(layout.attachments).toEqual(['']);
    expect(layout.composer).toEqual(['› Ask']);
    expect(layout.footer).toEqual(['', 'footer']);
    expect(layout.tailRoom).toBe(24 - 4 - 1);
    expect(under(layout) + layout.tailRoom).toBe(24 - 1);
    expect(layout.caret).toEqual({ x: 2, y: 1 });
  });

  it('on a very small screen the answer keeps no room of its own and a popup shrinks to its `…` row', () => {
    const layout = layoutScreen(parts({ rows: 6, popup: rowsOf('p', 8) }));
    expect(layout.popup).toEqual(['  …']);
    expect(layout.tailRoom).toBe(0);
  });

  it('cuts a popup taller than the room left, keeping one row for the answer', () => {
    const status = ['', '• Working'];
    const layout = layoutScreen(parts({ rows: 20, status, attachments: ['att'], popup: rowsOf('p', 30) }));
    // 20 rows less status 2, attachments 2, composer 1, footer 2, a spare row and the answer's row.
    expect(layout.popup).toEqual([...rowsOf('p', 10), '  …']);
    expect(layout.tailRoom).toBe(1);
    expect(under(layout) + layout.tailRoom).toBe(20 - 1);
    expect(layoutScreen(parts({ rows: 20, popup: rowsOf('p', 8) })).popup).toEqual(rowsOf('p', 8));
  });

  it('gives the waiting messages what is left after the composer and its popup, and the answer the rest', () => {
    const pending = filling('w');
    const layout = layoutScreen(parts({ rows: 16, status: ['', '• Working'], pending: pending.build, popup: rowsOf('p', 3) }));
    // 16 rows less status 2, the blank row, composer 1, popup 3, footer 2, a spare row and the answer's row.
    expect(pending.rooms).toEqual([5]);
    expect(layout.pending).toEqual(['', ...rowsOf('w', 4)]);
    expect(layout.tailRoom).toBe(1);
    expect(under(layout) + layout.tailRoom).toBe(16 - 1);
  });

  it('puts the approval prompt in the composer’s place, keeps room for waiting messages, hides the caret', () => {
    const modal = filling('m');
    const pending = filling('w');
    const composer = { rows: ['› draft'], caret: { row: 0, col: 7 }, empty: false };
    const layout = layoutScreen(
      parts({ rows: 30, commands: ['', '$ ls'], pending: pending.build, modal: modal.build, composer, popup: ['p'], attachments: ['a'] }),
    );
    expect(modal.rooms).toEqual([30 - (2 + 5 + 4)]);
    expect(layout.modal).toHaveLength(modal.rooms[0]!);
    expect(layout.composer).toEqual(['', '› draft']);
    expect(layout.attachments).toEqual([]);
    expect(layout.popup).toEqual([]);
    expect(layout.caret).toBeNull();
    expect(under(layout) + layout.tailRoom).toBe(30 - 1);
    // An empty draft is not drawn under the prompt; without waiting messages the prompt gets their rows.
    const alone = filling('m');
    expect(layoutScreen(parts({ rows: 30, modal: alone.build })).composer).toEqual([]);
    expect(alone.rooms).toEqual([30 - 5]);
  });

  it('places the caret in the composer’s window, under the commands, status, waiting messages and attachments', () => {
    const composer = { rows: rowsOf('c', 8), caret: { row: 7, col: 4 }, empty: false };
    expect(composerWindow(10)).toBe(5);
    const layout = layoutScreen(
      parts({ rows: 10, commands: ['cmd'], status: ['', 's'], pending: () => ['', 'w'], attachments: ['a'], composer }),
    );
    expect(layout.composer).toEqual(rowsOf('c', 8).slice(3));
    // commands 1, status 2, pending 2, blank row and attachment 2, then the 5th row of the window.
    expect(layout.caret).toEqual({ x: 4, y: 1 + 2 + 2 + 2 + 4 });
  });
});
