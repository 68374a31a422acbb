/**
 * The chat screen: thin components over the store. Everything below the transcript is built from
 * pre-wrapped rows, so the screen knows each part's height: the caret's row for the real cursor and
 * the room left for a streaming answer (the live area stays shorter than the terminal).
 */
import { Box, useCursor, useStdout } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { homedir } from 'node:os';
import { approvalModeFooter } from './chat/approval-modes.js';
import { BACKTRACK_HINT } from './chat/backtrack.js';
import { RESUME_PICKER_HINT, resumePickerLines } from './chat/resume-picker.js';
import { onHighlighterLoaded } from './markdown.js';
import { onThemeChange } from './theme.js';
import { hasPendingInput, pendingCount, pendingPreviewLines } from './chat/pending-view.js';
import { PENDING_EDIT_HINT, PENDING_FOCUS_HINT } from './chat/pending-keys.js';
import type { ChatState, ChatStore } from './store.js';
import { ApprovalModal } from './components/ApprovalModal.js';
import { AttachmentRows } from './components/AttachmentRows.js';
import { Composer } from './components/Composer.js';
import { composerTextWidth, composerView, windowRows } from './components/composer-view.js';
import { Footer } from './components/Footer.js';
import { useElapsedSeconds, useSpinnerFrame, useTerminalSize, useUntil } from './components/hooks.js';
import {
  APPROVAL_HINT,
  approvalLines,
  defaultChalk,
  footerLine,
  liveCommandLines,
  liveMcpLines,
  EFFORT_PICKER_HINT,
  MODE_PICKER_HINT,
  MODEL_PICKER_HINT,
  modelPickerLines,
  modePickerLines,
  previewRows,
  QUIT_HINT,
  statusLines,
} from './components/lines.js';
import { LiveMessage } from './components/LiveMessage.js';
import { PendingInput } from './components/PendingInput.js';
import { Popup } from './components/Popup.js';
import { type PrinterFrame, TranscriptPrinter } from './components/printer.js';
import { StatusLine } from './components/StatusLine.js';

export interface AppProps {
  store: ChatStore;
  /** The injected clock (ms), the same the controller uses. */
  now: () => number;
  platform?: NodeJS.Platform;
  /** Told the composer's wrap width on mount and on every resize (the controller's `setComposerWidth`). */
  onComposerWidth?: (width: number) => void;
}

const selectTranscript = (s: ChatState) => s.cells;

/** Erase the screen and the scrollback, cursor home. */
export const CLEAR_SCREEN = '\x1b[2J\x1b[3J\x1b[H';

export function App({ store, now, platform, onComposerWidth }: AppProps): React.JSX.Element {
  const { columns, rows } = useTerminalSize();
  const width = Math.max(10, columns);
  // A block body: whatever the callback returns must not become this effect's cleanup.
  useEffect(() => {
    onComposerWidth?.(composerTextWidth(width));
  }, [width, onComposerWidth]);
  const cells = useStore(store, selectTranscript);
  const generation = useStore(store, (s) => s.transcriptGeneration);
  const live = useStore(store, (s) => s.live);
  const activeTurn = useStore(store, (s) => s.activeTurn);
  const status = useStore(store, (s) => s.status);
  const statusDetail = useStore(store, (s) => s.statusDetail);
  const spinner = useSpinnerFrame(useStore(store, (s) => s.preparingMedia));
  const pendingSteers = useStore(store, (s) => s.pendingSteers);
  const rejectedSteers = useStore(store, (s) => s.rejectedSteers);
  const queued = useStore(store, (s) => s.queued);
  const pendingFocus = useStore(store, (s) => s.pendingFocus);
  const pendingEdit = useStore(store, (s) => s.pendingEdit);
  const composer = useStore(store, (s) => s.composer);
  const modal = useStore(store, (s) => s.modal);
  const approvalMode = useStore(store, (s) => s.approvalMode);
  const modePicker = useStore(store, (s) => s.modePicker);
  const modelPicker = useStore(store, (s) => s.modelPicker);
  const resumePicker = useStore(store, (s) => s.resumePicker);
  const threadId = useStore(store, (s) => s.threadId);
  const backtrackPrimed = useStore(store, (s) => s.backtrack.phase === 'primed');
  const footer = useStore(store, (s) => s.footer);
  // Another program (Ctrl+G's editor) or the transcript pager owns the terminal.
  const screenSuspended = useStore(store, (s) => s.screenSuspended || s.pager !== null);
  const quitHintUntil = useStore(store, (s) => s.quitHintUntil);

  const { write } = useStdout();
  const exiting = useStore(store, (s) => s.exitRequested);

  // A code block's colours arrive when the highlighter finishes loading: render once more then.
  const [, setRedraws] = useState(0);
  useEffect(() => onHighlighterLoaded(() => setRedraws((n) => n + 1)), []);
  // The terminal named its background (OSC 11): what is drawn from now on takes the theme's colours.
  useEffect(() => onThemeChange(() => setRedraws((n) => n + 1)), []);

  const seconds = useElapsedSeconds(activeTurn?.startedAt ?? null, now);
  const quitHint = useUntil(quitHintUntil, now);

  const waiting = pendingCount({ pendingSteers, rejectedSteers, queued });
  const statusRows = useMemo(
    () => (activeTurn === null ? [] : ['', ...statusLines(status, statusDetail, seconds, width, undefined, spinner, waiting)]),
    [activeTurn, status, statusDetail, seconds, width, spinner, waiting],
  );
  // While the approval prompt shows the command (or MCP call), the live area does not show it a second
  // time. MCP calls in progress and the wait for a server to start come under the command.
  const commandRows = useMemo(
    () => [
      ...(live.command === null || modal !== null ? [] : liveCommandLines(live.command, width)),
      ...liveMcpLines({ mcpCalls: modal === null ? live.mcpCalls : undefined, mcpStarting: live.mcpStarting }, width),
    ],
    [live.command, live.mcpCalls, live.mcpStarting, modal, width],
  );

  // The composer's window is half the screen: only the lines it can show are laid out.
  const composerWindow = Math.floor(rows / 2);
  const view = useMemo(() => composerView(composer, width, undefined, composerWindow), [composer, width, composerWindow]);
  const modelPickerHint = modelPicker?.stage === 'effort' ? EFFORT_PICKER_HINT : MODEL_PICKER_HINT;
  const pickerHint = resumePicker !== null ? RESUME_PICKER_HINT : modelPicker !== null ? modelPickerHint : modePicker !== null ? MODE_PICKER_HINT : null;
  const focusHint = pendingFocus !== null ? PENDING_FOCUS_HINT : pendingEdit !== null ? PENDING_EDIT_HINT : null;
  const hint = quitHint ? QUIT_HINT : modal !== null ? APPROVAL_HINT : backtrackPrimed ? BACKTRACK_HINT : (pickerHint ?? focusHint ?? view.hint);
  // As Codex's: `gpt-5.1-codex high` when an effort is set.
  const modelText = footer.effort === null ? footer.model : `${footer.model} ${footer.effort}`;
  const footerText = useMemo(
    () => footerLine({ hint, model: modelText, offline: footer.offline, vim: view.vim, mode: approvalModeFooter(approvalMode) }, width),
    [hint, view.vim, modelText, footer.offline, approvalMode, width],
  );

  // The live area must stay shorter than the terminal: the prompt first, then pending messages get the rest.
  const anyPending = hasPendingInput({ pendingSteers, rejectedSteers, queued });
  const modalRoom = rows - (statusRows.length + commandRows.length + 5 + (anyPending ? 4 : 0));
  // The approval prompt, else the /approvals picker, takes the composer's place.
  const modalRows = useMemo(() => {
    if (modal !== null) return ['', ...approvalLines(modal, width, undefined, modalRoom)];
    if (resumePicker !== null) {
      const context = { width, maxRows: modalRoom - 1, nowMs: now(), home: homedir(), currentThreadId: threadId };
      return ['', ...resumePickerLines(resumePicker, context, defaultChalk)];
    }
    if (modelPicker !== null) return ['', ...modelPickerLines(modelPicker, footer, width, undefined, modalRoom)];
    return modePicker === null ? null : ['', ...modePickerLines(modePicker.selected, approvalMode, width)];
  }, [modal, resumePicker, threadId, now, modelPicker, modePicker, approvalMode, footer, width, modalRoom]);
  const shown = useMemo(() => windowRows(view.rows, view.caret.row, composerWindow), [view, composerWindow]);
  // Under the approval prompt the draft stays in view when there is one (typing may go on into it).
  const composerRows = modalRows === null ? shown.rows : view.empty ? [] : ['', ...shown.rows];
  // A popup taller than the room left (the `?` overlay in one column on a small screen) is cut.
  const popupRoom = rows - (statusRows.length + commandRows.length + view.attachmentRows.length + composerRows.length + 5);
  const popupRows = view.popupRows.length <= popupRoom ? view.popupRows : [...view.popupRows.slice(0, Math.max(0, popupRoom - 1)), '  …'];
  const bottomRows = modalRows === null ? ['', ...view.attachmentRows, ...composerRows, ...popupRows] : [...modalRows, ...composerRows];
  const pendingRoom = rows - (statusRows.length + bottomRows.length + commandRows.length + 4);
  const pendingRows = useMemo(() => {
    if (!anyPending) return [];
    const options = { maxLines: pendingRoom - 1, ...(platform === undefined ? {} : { platform }) };
    return ['', ...previewRows(pendingPreviewLines({ pendingSteers, rejectedSteers, queued, pendingFocus, pendingEdit }, width, options))];
  }, [anyPending, pendingSteers, rejectedSteers, queued, pendingFocus, pendingEdit, width, platform, pendingRoom]);
  const bottomHeight = statusRows.length + pendingRows.length + bottomRows.length + commandRows.length + 2;

  const printer = useRef<TranscriptPrinter | null>(null);
  printer.current ??= new TranscriptPrinter();
  // The scrollback is ours: new rows go above Ink's live area (Ink's write erases it, prints, redraws
  // it); a new epoch (/clear, /new, a resize) first clears the screen and the scrollback.
  const printed = useRef<PrinterFrame | null>(null);
  const written = useRef<{ epoch: number; count: number } | null>(null);
  useLayoutEffect(() => {
    const frame = printed.current;
    if (frame === null) return;
    const last = written.current;
    const fresh = last === null || last.epoch !== frame.epoch;
    const start = fresh ? 0 : last.count;
    written.current = { epoch: frame.epoch, count: frame.items.length };
    // The first epoch prints below whatever the terminal showed before Tiller started.
    const clear = fresh && last !== null ? CLEAR_SCREEN : '';
    if (clear === '' && start >= frame.items.length) return;
    write(clear + frame.items.slice(start).flatMap((item) => item.lines.map((line) => `${line}\n`)).join(''));
  });
  // While the terminal is someone else's (Ctrl+G's editor, Ctrl+T's pager) the same element comes back: React
  // renders nothing new, so Ink writes nothing; the store keeps moving and is drawn on return.
  const lastTree = useRef<React.JSX.Element | null>(null);
  const lastCursor = useRef<{ x: number; y: number } | undefined>(undefined);
  const { setCursorPosition } = useCursor();
  if (screenSuspended && lastTree.current !== null) {
    // Ink moves the cursor unless told its place on every commit; the same place means no write.
    setCursorPosition(lastCursor.current);
    return lastTree.current;
  }
  const frame = printer.current.update(cells, generation, live, width, rows - bottomHeight - 1, rows);
  printed.current = frame;
  // On the way out the live area goes: the shell prompt comes back on a clean line below the transcript.
  if (exiting) {
    setCursorPosition(undefined);
    return <Box />;
  }

  const liveHeight = frame.liveAgentRows.length + commandRows.length;
  const caretTop = liveHeight + statusRows.length + pendingRows.length + 1 + view.attachmentRows.length;
  // The real cursor sits at the caret, so IME candidate windows open where the text goes.
  const cursor = modalRows === null ? { x: view.caret.col, y: caretTop + shown.caretRow } : undefined;
  lastCursor.current = cursor;
  setCursorPosition(cursor);

  lastTree.current = (
    <Box flexDirection="column" width={width}>
      <LiveMessage agentRows={frame.liveAgentRows} commandRows={commandRows} />
      <StatusLine lines={statusRows} />
      <PendingInput lines={pendingRows} />
      {modalRows !== null ? <ApprovalModal lines={modalRows} /> : <AttachmentRows lines={['', ...view.attachmentRows]} />}
      {/* Always mounted; under a modal it shows the draft (if any) without the cursor. */}
      <Composer lines={composerRows} />
      {modalRows !== null ? null : <Popup lines={popupRows} />}
      <Footer line={footerText} />
    </Box>
  );
  return lastTree.current;
}
