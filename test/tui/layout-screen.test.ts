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

  it('on a very small screen the popup goes whole, and the live area with one row of the answer stays above the spare row', () => {
    const layout = layoutScreen(parts({ rows: 6, popup: rowsOf('p', 8) }));
    expect(layout.popup).toEqual([]);
    expect(layout.composer).toEqual(['› Ask']);
    expect(layout.tailRoom).toBe(1);
    expect(under(layout) + layout.tailRoom).toBe(6 - 1);
  });

  it('an empty popup takes no row, even when there is no room for one', () => {
    const status = ['', '• Working (0s • esc to', '  interrupt)'];
    const layout = layoutScreen(parts({ rows: 8, status }));
    expect(layout.popup).toEqual([]);
    expect(under(layout) + layout.tailRoom).toBe(8 - 1);
    expect(layout.tailRoom).toBeGreaterThanOrEqual(1);
  });

  it('on any short screen cuts the least needed rows first and keeps the caret on its composer row', () => {
    const composer = { rows: rowsOf('c', 6), caret: { row: 5, col: 3 }, empty: false };
    const full = {
      commands: rowsOf('cmd', 3),
      status: ['', 's0', 's1'],
      pending: (room: number) => ['', ...rowsOf('w', Math.max(1, Math.min(4, room - 1)))],
      attachments: ['a'],
      popup: rowsOf('p', 3),
      composer,
    };
    for (let rows = 6; rows <= 40; rows++) {
      const layout = layoutScreen(parts({ rows, ...full }));
      expect(layout.tailRoom, `rows ${rows}`).toBeGreaterThanOrEqual(1);
      expect(under(layout) + layout.tailRoom, `rows ${rows}`).toBe(rows - 1);
      const { caret } = layout;
      const y = layout.commands.length + layout.status.length + layout.pending.length + layout.attachments.length;
      expect(layout.composer[caret!.y - y], `rows ${rows}`).toBe('c5');
    }
    // At 8 rows: the popup, the blank rows, the waiting messages and the command went; one status row stays.
    const small = layoutScreen(parts({ rows: 8, ...full }));
    expect(small.popup).toEqual([]);
    expect(small.footer).toEqual(['footer']);
    expect(small.pending).toEqual([]);
    expect(small.commands).toEqual([]);
    expect(small.status).toEqual(['s0']);
    expect(small.attachments).toEqual(['a']);
    expect(small.composer).toEqual(['c3', 'c4', 'c5']);
  });

  it('cuts the modal from its top, so its choices stay in sight', () => {
    // A prompt that cannot shrink below its six rows.
    const modal = (): string[] => ['', ...rowsOf('m', 6)];
    const layout = layoutScreen(parts({ rows: 8, status: ['', 's'], modal }));
    expect(layout.modal).toEqual(['m2', 'm3', 'm4', 'm5']);
    expect(under(layout) + layout.tailRoom).toBe(8 - 1);
    expect(layout.caret).toBeNull();
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
    const composer = { rows: rowsOf('c', 15), caret: { row: 14, col: 4 }, empty: false };
    expect(composerWindow(24)).toBe(12);
    const layout = layoutScreen(
      parts({ rows: 24, commands: ['cmd'], status: ['', 's'], pending: () => ['', 'w'], attachments: ['a'], composer }),
    );
    expect(layout.composer).toEqual(rowsOf('c', 15).slice(3));
    // commands 1, status 2, pending 2, blank row and attachment 2, then the 12th row of the window.
    expect(layout.caret).toEqual({ x: 4, y: 1 + 2 + 2 + 2 + 11 });
  });
});
