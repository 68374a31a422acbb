/**
 * The App rendered by Ink into a headless xterm (in process): what the screen shows for each store
 * state, and that the real cursor sits at the composer's caret.
 */
import xterm from '@xterm/headless';
import type { Instance } from 'ink';
import { EventEmitter } from 'node:events';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importWithLiveRendering } from '../../../src/tui/live-render.js';
import { composerReducer, initialComposerState } from '../../../src/tui/composer/reducer.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { charKey } from '../../../src/tui/keys/types.js';
import { createChatStore, pendingInputFor, withCells, type ChatStore } from '../../../src/tui/store.js';
import { inkStdout } from '../../../src/tui/terminal/ink-stdout.js';
import { PENDING_EDIT_HINT, PENDING_FOCUS_HINT } from '../../../src/tui/chat/pending/pending-keys.js';

class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly writes: string[] = [];
  constructor(
    readonly term: xterm.Terminal,
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write(data: string): boolean {
    this.writes.push(data);
    this.term.write(data);
    return true;
  }
}

// Loaded as the product loads them, so a CI environment (CI=true) still gets every frame drawn.
let render: typeof import('ink').render;
let App: typeof import('../../../src/tui/app.js').App;
beforeAll(async () => {
  ({ render } = await importWithLiveRendering(() => import('ink')));
  ({ App } = await importWithLiveRendering(() => import('../../../src/tui/app.js')));
});

let instance: Instance | null = null;
let term: xterm.Terminal | null = null;
afterEach(() => {
  instance?.unmount();
  instance = null;
  term?.dispose();
  term = null;
});

const settle = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 60));
  await new Promise<void>((resolve) => term!.write('', resolve));
};

function screen(): string[] {
  const buffer = term!.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < term!.rows; y++)
    out.push(
      buffer
        .getLine(buffer.viewportY + y)
        ?.translateToString(true)
        .trimEnd() ?? '',
    );
  return out;
}

const NOW = 1_000_000;

async function mount(store: ChatStore, cols = 60, rows = 20, onComposerWidth?: (width: number) => void): Promise<FakeStdout> {
  // convertEol: a pty turns "\n" into "\r\n"; this stream goes to the terminal directly.
  term = new xterm.Terminal({ cols, rows, allowProposedApi: true, convertEol: true });
  const stdout = new FakeStdout(term, cols, rows);
  const app =
    onComposerWidth === undefined ? (
      <App store={store} now={() => NOW} platform="linux" />
    ) : (
      <App store={store} now={() => NOW} platform="linux" onComposerWidth={onComposerWidth} />
    );
  instance = render(app, {
    stdout: inkStdout(stdout) as unknown as NodeJS.WriteStream,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  await settle();
  return stdout;
}

function newStore(): ChatStore {
  return createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true }), {
    model: 'tiller-offline',
    offline: true,
  });
}

function typeInto(store: ChatStore, text: string): void {
  let composer = store.getState().composer;
  let now = NOW;
  for (const ch of text) composer = composerReducer(composer, charKey(ch) as ComposerEvent, (now += 50)).state;
  store.setState({ composer });
}

describe('App', () => {
  it('tells the composer wrap width (columns minus the prompt and a spare cell) on mount and on resize', async () => {
    const widths: number[] = [];
    const stdout = await mount(newStore(), 60, 20, (w) => widths.push(w));
    expect(widths).toEqual([57]);
    Object.defineProperty(stdout, 'columns', { value: 40 });
    stdout.emit('resize');
    await settle();
    expect(widths).toEqual([57, 37]);
  });

  it('shows the empty composer and the footer with the model and offline', async () => {
    const store = newStore();
    await mount(store);
    const rows = screen();
    expect(rows).toContain('› Ask Tiller to do anything');
    const footer = rows.find((r) => r.includes('? for shortcuts'))!;
    expect(footer).toMatch(/tiller-offline · offline$/);
  });

  it('puts the terminal cursor at the caret', async () => {
    const store = newStore();
    await mount(store);
    typeInto(store, 'hello');
    await settle();
    const rows = screen();
    const y = rows.indexOf('› hello');
    expect(y).toBeGreaterThanOrEqual(0);
    expect(term!.buffer.active.cursorY).toBe(y);
    expect(term!.buffer.active.cursorX).toBe(7);
  });

  it('keeps the caret on the composer while a turn runs with pending input above it', async () => {
    const store = newStore();
    await mount(store);
    store.setState((s) => {
      const { input, nextPendingId } = pendingInputFor(s, { text: 'also X', textElements: [], attachments: [] });
      return {
        activeTurn: { id: 't1', startedAt: NOW - 3_000 },
        status: 'Working',
        pendingSteers: [input],
        nextPendingId,
        live: { agentText: 'Streaming **answer**', agentItemId: 'm1', command: null },
      };
    });
    typeInto(store, 'ab');
    await settle();
    const rows = screen();
    expect(rows).toContain('• Streaming answer');
    expect(rows, rows.join('\n')).toContain('• Working (3s • esc to interrupt • 1 waiting)');
    expect(rows).toContain('• Messages to be submitted after next tool call (press esc');
    expect(rows).toContain('  ↳ also X');
    expect(rows).toContain('    ctrl + q edit or retract');
    const y = rows.indexOf('› ab');
    expect(term!.buffer.active.cursorY).toBe(y);
    expect(term!.buffer.active.cursorX).toBe(4);
  });

  it('the footer names the keys of the waiting-message list while it has the keyboard, and of an edit', async () => {
    const store = newStore();
    await mount(store);
    store.setState((s) => {
      const { input, nextPendingId } = pendingInputFor(s, { text: 'queued one', textElements: [], attachments: [] });
      return {
        activeTurn: { id: 't1', startedAt: NOW },
        status: 'Working',
        queued: [input],
        nextPendingId,
        pendingFocus: { selectedId: input.id },
      };
    });
    await settle();
    // The footer cuts the hint to the width (60 here).
    expect(screen().some((row) => row.startsWith(`  ${PENDING_FOCUS_HINT.slice(0, 40)}`))).toBe(true);
    expect(screen()).toContain('› ↳ queued one');
    store.setState((s) => ({
      pendingFocus: null,
      pendingEdit: { id: s.queued[0]!.id, displaced: { draft: { text: '', textElements: [], attachments: [] }, pendingPastes: [] } },
    }));
    await settle();
    expect(screen().some((row) => row.startsWith(`  ${PENDING_EDIT_HINT.slice(0, 40)}`))).toBe(true);
  });

  it('prints finished cells above the live area', async () => {
    const store = newStore();
    await mount(store);
    store.setState((s) =>
      withCells(s, [
        { kind: 'user', text: 'question', textElements: [], attachmentLabels: [], turnId: null },
        { kind: 'agent', markdown: 'answer' },
      ]),
    );
    await settle();
    const rows = screen();
    expect(rows.indexOf('› question')).toBeLessThan(rows.indexOf('• answer'));
    expect(rows.indexOf('• answer')).toBeLessThan(rows.indexOf('› Ask Tiller to do anything'));
  });

  it("puts the approval prompt in the composer's place and keeps the draft in view under it", async () => {
    const store = newStore();
    await mount(store);
    typeInto(store, 'draft');
    store.setState({ modal: { kind: 'approval', command: 'ls -la', cwd: '/tmp', reason: null } });
    await settle();
    let rows = screen();
    expect(rows).toContain('Would you like to run the following command?');
    expect(rows).toContain('  $ ls -la');
    expect(rows.indexOf('› draft')).toBeGreaterThan(rows.findIndex((r) => r.startsWith('  n  No')));
    expect(rows.some((r) => r.startsWith('  y to run · a for the session · n or esc to decline'))).toBe(true);
    expect(rows.some((r) => r.includes('? for shortcuts'))).toBe(false);
    store.setState({ modal: null });
    await settle();
    rows = screen();
    expect(rows).toContain('› draft');
    expect(rows.some((r) => r.startsWith('  ? for shortcuts'))).toBe(true);
  });

  it("shows the approval mode in the footer and the /approvals picker in the composer's place, the draft under it", async () => {
    const store = newStore();
    await mount(store, 100);
    expect(screen().find((r) => r.includes('? for shortcuts'))).toMatch(/ auto · tiller-offline · offline$/);
    typeInto(store, 'draft');
    store.setState({ modePicker: { selected: 3 }, approvalMode: { approvalPolicy: 'untrusted', sandboxMode: 'workspace-write' } });
    // Polled: a frame can come later than a fixed pause on a loaded machine.
    await expect.poll(screen, { timeout: 5000 }).toContain('  2. Ask first (current)  asks before every command not known to be read-only');
    const rows = screen();
    expect(rows.indexOf('› draft')).toBeGreaterThan(rows.findIndex((r) => r.startsWith('▸ 4. Full access')));
    expect(rows.find((r) => r.startsWith('  ↑/↓ to choose · enter or 1–4 to pick · esc to close'))).toMatch(
      / ask first · tiller-offline · offline$/,
    );
    store.setState({ modePicker: null, approvalMode: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' } });
    await expect
      .poll(() => screen().find((r) => r.includes('? for shortcuts')), { timeout: 5000 })
      .toMatch(/ full access · tiller-offline · offline$/);
    expect(term!.buffer.active.cursorY).toBe(screen().indexOf('› draft'));
  });

  it('clears the screen on /clear (a new transcript generation)', async () => {
    const store = newStore();
    await mount(store);
    store.setState((s) => withCells(s, [{ kind: 'user', text: 'old question', textElements: [], attachmentLabels: [], turnId: null }]));
    await settle();
    expect(screen()).toContain('› old question');
    store.setState((s) => ({ cells: [], transcriptGeneration: s.transcriptGeneration + 1 }));
    await settle();
    store.setState((s) => withCells(s, [{ kind: 'info', text: 'fresh start' }]));
    await settle();
    const rows = screen();
    expect(rows).not.toContain('› old question');
    expect(rows).toContain('• fresh start');
    expect(rows).toContain('› Ask Tiller to do anything');
  });

  it('runs the elapsed-seconds timer only while a turn runs', async () => {
    const store = newStore();
    await mount(store);
    // Frame throttling uses short timeouts; the ticker waits up to a second.
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const secondTimers = (): number => spy.mock.calls.filter(([, delay]) => typeof delay === 'number' && delay > 100).length;
    try {
      typeInto(store, 'idle typing');
      await settle();
      expect(secondTimers()).toBe(0);
      store.setState({ activeTurn: { id: 't1', startedAt: NOW }, status: 'Working' });
      await settle();
      expect(secondTimers()).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('shows the quit hint while it is active', async () => {
    const store = newStore();
    await mount(store);
    store.setState({ quitHint: { key: 'd', until: NOW + 1_000 } });
    await settle();
    expect(screen().some((r) => r.startsWith('  press Ctrl+D again to quit'))).toBe(true);
  });

  it('keeps everything below the transcript shorter than the terminal: a long queue is cut to fit', async () => {
    const store = newStore();
    for (let i = 1; i <= 12; i++) {
      store.setState((s) => {
        const { input, nextPendingId } = pendingInputFor(s, { text: `queued message ${i}`, textElements: [], attachments: [] });
        return { queued: [...s.queued, input], nextPendingId };
      });
    }
    store.setState({ activeTurn: { id: 't1', startedAt: NOW - 3_000 }, status: 'Working' });
    const stdout = await mount(store, 60, 14);
    const rows = screen();
    expect(rows, rows.join('\n')).toContain('› Ask Tiller to do anything');
    expect(rows).toContain('  ↳ queued message 1');
    expect(rows.some((r) => /^ {4}… \d+ more queued messages$/.test(r))).toBe(true);
    expect(rows.some((r) => r.startsWith('  ? for shortcuts'))).toBe(true);
    // Ink clears the whole terminal (scrollback included) when its live area reaches the terminal's height.
    expect(stdout.writes.join('')).not.toContain('\x1b[3J');
  });

  it('cuts a tall command in the approval prompt so the live area stays shorter than the terminal', async () => {
    const store = newStore();
    const command = Array.from({ length: 60 }, (_, i) => `echo line ${i + 1}`).join('\n');
    store.setState({
      activeTurn: { id: 't1', startedAt: NOW - 3_000 },
      status: 'Working',
      modal: { kind: 'approval', command, cwd: '/tmp', reason: null },
    });
    const stdout = await mount(store, 60, 20);
    const rows = screen();
    expect(rows, rows.join('\n')).toContain('  $ echo line 1');
    expect(rows.some((r) => /^ {4}… \d+ more lines$/.test(r))).toBe(true);
    expect(rows.some((r) => r.startsWith('  y to run'))).toBe(true);
    expect(stdout.writes.join('')).not.toContain('\x1b[3J');
  });

  it('writes nothing while another program owns the terminal, then draws what happened meanwhile', async () => {
    const store = newStore();
    const stdout = await mount(store);
    typeInto(store, 'draft');
    await settle();
    store.setState({ screenSuspended: true });
    await settle();
    const writes = stdout.writes.length;
    store.setState((s) => withCells(s, [{ kind: 'info', text: 'arrived meanwhile' }]));
    store.setState({ activeTurn: { id: 't1', startedAt: NOW } });
    typeInto(store, ' more');
    await settle();
    expect(stdout.writes.length).toBe(writes);
    store.setState({ screenSuspended: false });
    await settle();
    const rows = screen();
    expect(rows).toContain('• arrived meanwhile');
    expect(rows).toContain('› draft more');
    // The transcript pager holds the chat screen still the same way.
    store.setState({ pager: { top: null } });
    await settle();
    const before = stdout.writes.length;
    typeInto(store, '!');
    await settle();
    expect(stdout.writes.length).toBe(before);
  });

  it("shows the /model picker in the composer's place with its hint, and the effort beside the model in the footer", async () => {
    const store = newStore();
    await mount(store, 100);
    store.setState((s) => ({
      footer: { ...s.footer, effort: 'high' },
      modelPicker: {
        stage: 'model',
        models: [
          { model: 'tiller-offline', provider: null, providerName: null },
          { model: 'other', provider: null, providerName: null },
        ],
        note: null,
        filter: '',
        selected: 1,
        model: null,
      },
    }));
    await settle();
    const rows = screen();
    expect(rows).toContain('Model for the next turn');
    expect(rows).toContain('  tiller-offline (current)');
    expect(rows).toContain('▸ other');
    expect(rows.find((r) => r.startsWith('  ↑/↓ · type to filter · enter to pick · esc to close'))).toMatch(
      / auto · tiller-offline high · offline$/,
    );
    expect(rows).not.toContain('› Ask Tiller to do anything');
  });

  it('cuts the ? overlay to the room on a small screen, so the live area stays shorter than the terminal', async () => {
    const store = newStore();
    const stdout = await mount(store, 40, 14);
    typeInto(store, '?');
    await settle();
    const rows = screen();
    expect(rows, rows.join('\n')).toContain('  / for commands');
    expect(rows).toContain('  …');
    expect(rows.some((r) => r.startsWith('  ? for shortcuts'))).toBe(true);
    expect(stdout.writes.join('')).not.toContain('\x1b[3J');
  });
});
