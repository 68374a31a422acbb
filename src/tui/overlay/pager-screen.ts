/**
 * The transcript pager on screen: while `pager` is set in the store it owns the terminal's alternate
 * screen (the chat screen holds still underneath and comes back as it was) and its keys; it redraws
 * when the store changes (a streaming answer) or the terminal is resized.
 */
import type { InputEvent } from '../keys/types.js';
import type { ChatStore } from '../store.js';
import { pagerFrame, pagerKey, TranscriptLines } from './transcript-pager.js';

export const ALT_SCREEN_ON = '\x1b[?1049h';
export const ALT_SCREEN_OFF = '\x1b[?1049l';

export interface PagerTerminal {
  write(data: string): unknown;
  readonly columns: number;
  readonly rows: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

export interface TranscriptPagerScreen {
  /** Takes a key while the pager is open (and no prompt waits); false leaves it to the chat. */
  handleInput(event: InputEvent): boolean;
  dispose(): void;
}

export function attachTranscriptPager(store: ChatStore, terminal: PagerTerminal): TranscriptPagerScreen {
  const transcript = new TranscriptLines();
  let open = false;
  let lastFrame = '';
  const lines = (): string[] => {
    const s = store.getState();
    return transcript.lines(s.cells, s.live, Math.max(10, terminal.columns));
  };
  const draw = (): void => {
    const pager = store.getState().pager;
    if (pager === null) return;
    const frame = pagerFrame(lines(), pager, Math.max(10, terminal.columns), Math.max(2, terminal.rows));
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
      if (s.pager === null || s.modal !== null || event.type !== 'key') return false;
      if (event.kind === 'release') return true;
      const result = pagerKey(s.pager, event, lines().length, Math.max(1, terminal.rows - 1));
      store.setState({ pager: result === 'close' ? null : result });
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
