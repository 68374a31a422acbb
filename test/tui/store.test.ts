import { describe, expect, it } from 'vitest';
import { createChatStore, pendingInputFor, withCells, type ChatState, type PendingInput } from '../../src/tui/store.js';
import { pendingPreviewLines } from '../../src/tui/chat/pending/pending-view.js';
import type { ComposerState } from '../../src/tui/composer/state.js';
import type { Submission } from '../../src/tui/composer/types.js';

const composer = {} as ComposerState;

function sub(text: string, images = 0): Submission {
  return {
    text,
    textElements: [],
    attachments: Array.from({ length: images }, (_, i) => ({
      kind: 'image' as const,
      placeholder: `[Image #${i + 1}]`,
      path: `/tmp/${i}.png`,
      fileName: `${i}.png`,
      bytes: 10,
      width: 1,
      height: 1,
      mime: 'image/png',
    })),
  };
}

function lists(p: {
  steers?: string[];
  rejected?: string[];
  queued?: string[];
}): Pick<ChatState, 'pendingSteers' | 'rejectedSteers' | 'queued'> {
  let id = 1;
  const mk = (t: string): PendingInput => ({ id: id++, text: t, attachmentCount: 0, submission: sub(t) });
  return {
    pendingSteers: (p.steers ?? []).map(mk),
    rejectedSteers: (p.rejected ?? []).map(mk),
    queued: (p.queued ?? []).map(mk),
  };
}

const texts = (lines: { text: string }[]): string[] => lines.map((l) => l.text);

describe('chat store', () => {
  it('starts empty with the given composer and footer', () => {
    const store = createChatStore(composer, { model: 'gpt-x', offline: true, providerLabel: 'offline' });
    const s = store.getState();
    expect(s.cells).toEqual([]);
    expect(s.composer).toBe(composer);
    expect(s.footer).toMatchObject({ model: 'gpt-x', offline: true, providerLabel: 'offline' });
    expect(s.activeTurn).toBeNull();
    expect(s.exitRequested).toBe(false);
  });

  it('assigns increasing cell ids when appending', () => {
    const store = createChatStore(composer);
    store.setState((s) =>
      withCells(s, [
        { kind: 'info', text: 'a' },
        { kind: 'error', text: 'b' },
      ]),
    );
    store.setState((s) => withCells(s, [{ kind: 'warning', text: 'c' }]));
    expect(store.getState().cells.map((c) => [c.id, c.kind])).toEqual([
      [1, 'info'],
      [2, 'error'],
      [3, 'warning'],
    ]);
  });

  it('previews image-only submissions by their labels', () => {
    const store = createChatStore(composer);
    const { input, nextPendingId } = pendingInputFor(store.getState(), sub('', 2), { compareKey: 'k' });
    expect(input).toMatchObject({ id: 1, text: '[Image #1] [Image #2]', attachmentCount: 2, compareKey: 'k' });
    expect(nextPendingId).toBe(2);
  });
});

describe('pendingPreviewLines', () => {
  it('renders nothing when empty or narrower than 4 cells', () => {
    expect(pendingPreviewLines(lists({}), 80)).toEqual([]);
    expect(pendingPreviewLines(lists({ steers: ['x'] }), 3)).toEqual([]);
  });

  it('renders the three sections in order with blank lines between them', () => {
    const lines = pendingPreviewLines(lists({ steers: ['also X'], rejected: ['r'], queued: ['next'] }), 200, { platform: 'linux' });
    expect(texts(lines)).toEqual([
      '• Messages to be submitted after next tool call (press esc to interrupt and send immediately)',
      '  ↳ also X',
      '',
      '• Messages to be submitted at end of turn',
      '  ↳ r',
      '',
      '• Queued follow-up inputs',
      '  ↳ next',
      '    alt + ↑ edit last queued message · ctrl + q manage',
    ]);
    expect(lines.map((l) => l.style)).toEqual(['header', 'steer', 'blank', 'header', 'steer', 'blank', 'header', 'queued', 'hint']);
  });

  it('uses the option key label on macOS', () => {
    expect(texts(pendingPreviewLines(lists({ queued: ['next'] }), 80, { platform: 'darwin' }))).toEqual([
      '• Queued follow-up inputs',
      '  ↳ next',
      '    ⌥ + ↑ edit last queued message · ctrl + q manage',
    ]);
  });

  it('wraps the header with a two-space indent', () => {
    const lines = texts(pendingPreviewLines(lists({ steers: ['x'] }), 40));
    expect(lines[0]).toBe('• Messages to be submitted after next');
    expect(lines.slice(1, -2).every((l) => l.startsWith('  ') && !l.startsWith('  ↳'))).toBe(true);
    expect(lines.slice(-2)).toEqual(['  ↳ x', '    ctrl + q edit or retract']);
  });

  it('shows at most three wrapped lines per message, then an ellipsis', () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve';
    const lines = texts(pendingPreviewLines(lists({ queued: [long, 'a\nb'] }), 14, { platform: 'linux' }));
    const first = lines.indexOf('  ↳ one two');
    expect(lines.slice(first, first + 6)).toEqual(['  ↳ one two', '    three four', '    five six', '    …', '  ↳ a', '    b']);
  });

  it('fits in maxLines rows: the rest is counted in a last row', () => {
    const queued = Array.from({ length: 12 }, (_, i) => `queued ${i + 1}`);
    const lines = pendingPreviewLines(lists({ queued }), 80, { platform: 'linux', maxLines: 5 });
    expect(texts(lines)).toEqual([
      '• Queued follow-up inputs',
      '  ↳ queued 1',
      '  ↳ queued 2',
      '  ↳ queued 3',
      '    … 9 more queued messages',
    ]);
    expect(lines.at(-1)!.style).toBe('hint');
    expect(pendingPreviewLines(lists({ queued }), 80, { maxLines: 14 })).toHaveLength(14);
  });

  it('a cut names what it hides: the queued section under a pending steer is counted as messages, not as lines of the steer', () => {
    const state = lists({ steers: ['steer one'], queued: ['q1', 'q2'] });
    const lines = texts(pendingPreviewLines(state, 100, { platform: 'linux', maxLines: 4 }));
    expect(lines).toContain('  ↳ steer one');
    expect(lines.at(-1)).toBe('    … 2 more queued messages');
    const long = lists({ queued: ['a\nb\nc'] });
    expect(texts(pendingPreviewLines(long, 60, { platform: 'linux', maxLines: 3 })).at(-1)).toBe('    … 3 more lines');
  });
});
