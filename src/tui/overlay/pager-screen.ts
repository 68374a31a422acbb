/**
 * The transcript pager (or /inspect's view of the next request) on screen: while `pager` is set in
 * the store it owns the terminal's alternate screen (the chat screen holds still underneath and comes
 * back as it was) and its keys; it redraws when the store changes (a streaming answer) or the
 * terminal is resized.
 */
import { isBacktrackKey } from '../chat/sessions/backtrack.js';
import type { InputEvent } from '../keys/types.js';
import type { ChatStore } from '../store-types.js';
import { ExplorerFrames } from '../diff-explorer/explorer-lines.js';
import { defaultChalk } from '../components/row-shapes.js';
import { inspectorLines } from './inspector.js';
import { pagerFrame, pagerKey, topFor, TranscriptLines } from './transcript-pager.js';

export const ALT_SCREEN_ON = '\x1b[?1049h';
export const ALT_SCREEN_OFF = '\x1b[?1049l';

export interface PagerTerminal {
  write(data: string): unknown;
  readonly columns: number;
  readonly rows: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** The overlay's share of the key chain: ChatController.handleInput asks it first. */
export interface OverlayKeys {
  /** Takes a key while the pager is open (and no prompt waits); false leaves it to the chat. */
  handleInput(event: InputEvent): boolean;
}

export interface TranscriptPagerScreen extends OverlayKeys {
  dispose(): void;
}

export function attachTranscriptPager(store: ChatStore, terminal: PagerTerminal): TranscriptPagerScreen {
  const transcript = new TranscriptLines();
  const explorer = new ExplorerFrames(defaultChalk);
  let open = false;
  let lastFrame = '';
  /** The backtrack highlight the view last scrolled to. */
  let scrolledTo: number | undefined;
  const lines = (): string[] => {
    const s = store.getState();
    const width = Math.max(10, terminal.columns);
    // The pending steers are read as they are now: they go with the request until the model takes them.
    if (s.pager?.inspect !== undefined) return inspectorLines(s.pager.inspect, s.pendingSteers, width);
    return transcript.lines(s.cells, s.live, width);
  };
  const draw = (): void => {
    const pager = store.getState().pager;
    if (pager === null) return;
    if (pager.explorer !== undefined) {
      const frame = explorer.frame(pager.explorer, Math.max(10, terminal.columns), Math.max(2, terminal.rows));
      if (frame !== lastFrame) terminal.write((lastFrame = frame));
      return;
    }
    const all = lines();
    const highlight = pager.highlight === undefined ? null : transcript.rangeOf(pager.highlight);
    if (pager.highlight !== scrolledTo) {
      // A new highlight scrolls its prompt into view; the store change draws again.
      scrolledTo = pager.highlight;
      const top = highlight === null ? pager.top : topFor(highlight, all.length, Math.max(1, terminal.rows - 1));
      if (top !== pager.top) {
        store.setState({ pager: { ...pager, top } });
        return;
      }
    }
    const frame = pagerFrame(all, pager, Math.max(10, terminal.columns), Math.max(2, terminal.rows), undefined, highlight);
    if (frame === lastFrame) return;
    lastFrame = frame;
    terminal.write(frame);
  };
  const unsubscribe = store.subscribe((s) => {
    if (s.pager !== null && !open) {
      open = true;
      lastFrame = '';
      terminal.write(ALT_SCREEN_ON);
    } else if (s.pager === null && open) {
      open = false;
      scrolledTo = undefined;
      terminal.write(ALT_SCREEN_OFF);
      return;
    }
    if (open) draw();
  });
  const onResize = (): void => {
    lastFrame = '';
    draw();
  };
  terminal.on('resize', onResize);
  return {
    handleInput(event) {
      const s = store.getState();
      // The /diff explorer takes its own keys (diff-explorer/explorer.ts, through LocalCommands).
      if (s.pager === null || s.pager.explorer !== undefined || s.modal !== null || event.type !== 'key') return false;
      if (event.kind === 'release') return true;
      // Backtrack's own keys go to the chat (the controller); the pager still scrolls.
      if (s.pager.highlight !== undefined && isBacktrackKey(event)) return false;
      const result = pagerKey(s.pager, event, lines().length, Math.max(1, terminal.rows - 1));
      store.setState({ pager: result === 'close' ? null : { ...s.pager, ...result } });
      return true;
    },
    /** Idempotent: also called on exit paths (signals, crashes). */
    dispose() {
      unsubscribe();
      terminal.off('resize', onResize);
      if (open) terminal.write(ALT_SCREEN_OFF);
      open = false;
    },
  };
}
