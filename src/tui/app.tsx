/**
 * The chat screen over the store. Everything below the transcript is built from pre-wrapped rows and
 * laid out by layoutScreen(), so the screen knows each part's height: the caret's row for the real
 * cursor and the room left for a streaming answer (the live area stays shorter than the terminal).
 */
import { latestFindings } from './chat/review/findings-picker.js';
import { FINDINGS_PICKER_HINT, findingsPickerLines, reviewPickerHint, reviewPickerLines } from './chat/review/review-picker-lines.js';
import { Box, useCursor, useStdout } from 'ink';
import { type DependencyList, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { homedir } from 'node:os';
import { approvalModeFooter } from './chat/approvals/approval-modes.js';
import { BACKTRACK_HINT } from './chat/sessions/backtrack.js';
import { rewindMenuLines } from './chat/rewind/rewind-lines.js';
import { OVERWRITE_HINT, REWIND_MENU_HINT } from './chat/rewind/rewind-menu.js';
import { RESUME_PICKER_HINT, resumePickerLines } from './chat/sessions/resume-picker.js';
import { onHighlighterLoaded } from './markdown.js';
import { onDiffColours } from './diff/diff-colours.js';
import { currentTheme, onThemeChange } from './theme.js';
import { hasPendingInput, pendingCount, pendingPreviewLines } from './chat/pending/pending-view.js';
import { PENDING_EDIT_HINT, PENDING_FOCUS_HINT } from './chat/pending/pending-keys.js';
import type { ChatState, ChatStore } from './store-types.js';
import { composerTextWidth, composerView } from './components/composer-view.js';
import { useElapsedSeconds, useSpinnerFrame, useTerminalSize, useUntil } from './components/hooks.js';
import { APPROVAL_HINT, footerLine, liveCommandLines, liveReasoningLines, previewRows, statusLines } from './components/lines.js';
import { liveMcpLines } from './components/mcp-lines.js';
import { planLines } from './components/tool-lines.js';
import { questionLines } from './chat/questions/question-lines.js';
import {
  approvalLines,
  EFFORT_PICKER_HINT,
  MODE_PICKER_HINT,
  MODEL_PICKER_HINT,
  modelPickerLines,
  modePickerLines,
} from './components/modal-lines.js';
import { defaultChalk } from './components/row-shapes.js';
import { type PrinterPlan, TranscriptPrinter } from './components/printer.js';
import { Rows } from './components/Rows.js';
import { quitHintText } from './chat/input/quit-press.js';
import { contextLeftOf, statusLineItems } from './components/status-line.js';
import { settingsPickerHint, settingsPickerLines } from './chat/settings/settings-lines.js';
import { composerWindow, layoutScreen } from './layout-screen.js';

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

/** `build`, rebuilt when `deps` change and remembered for the last room the layout gave it. */
function useRoomRows(build: ((room: number) => string[]) | null, deps: DependencyList): ((room: number) => string[]) | null {
  return useMemo(() => {
    if (build === null) return null;
    let last: { room: number; rows: string[] } | null = null;
    return (room: number) => {
      if (last?.room !== room) last = { room, rows: build(room) };
      return last.rows;
    };
  }, deps);
}

export function App({ store, now, platform, onComposerWidth }: AppProps): React.JSX.Element {
  const { columns, rows, settling } = useTerminalSize();
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
  const question = useStore(store, (s) => s.question ?? null);
  const approvalMode = useStore(store, (s) => s.approvalMode);
  const modePicker = useStore(store, (s) => s.modePicker);
  const modelPicker = useStore(store, (s) => s.modelPicker);
  const resumePicker = useStore(store, (s) => s.resumePicker);
  const reviewPicker = useStore(store, (s) => s.reviewPicker ?? null);
  const findingsPicker = useStore(store, (s) => s.findingsPicker ?? null);
  const settingsPicker = useStore(store, (s) => s.settingsPicker ?? null);
  const rewindMenu = useStore(store, (s) => s.rewind ?? null);
  const findings = useMemo(() => (findingsPicker === null ? [] : latestFindings(cells)), [findingsPicker, cells]);
  const threadId = useStore(store, (s) => s.threadId);
  const backtrackPrimed = useStore(store, (s) => s.backtrack.phase === 'primed');
  const footer = useStore(store, (s) => s.footer);
  // Another program (Ctrl+G's editor) or the transcript pager owns the terminal.
  const screenSuspended = useStore(store, (s) => s.screenSuspended || s.pager !== null);
  const quitArm = useStore(store, (s) => s.quitHint);

  const { write } = useStdout();
  const exiting = useStore(store, (s) => s.exitRequested);

  // A code block's colours arrive when the highlighter finishes loading: render once more then.
  const [, setRedraws] = useState(0);
  useEffect(() => onHighlighterLoaded(() => setRedraws((n) => n + 1)), []);
  // A patch cell waits for its diff's colours from the worker (diff/diff-colours.ts).
  useEffect(() => onDiffColours(() => setRedraws((n) => n + 1)), []);
  // The terminal named its background (OSC 11): what is drawn from now on takes the theme's colours.
  // /theme's preview too: every memoised part below depends on `theme`, so all of it is drawn again.
  const [theme, setThemeShown] = useState(currentTheme);
  useEffect(() => onThemeChange(() => setThemeShown(currentTheme())), []);

  const seconds = useElapsedSeconds(activeTurn?.startedAt ?? null, now);
  const quitHint = useUntil(quitArm?.until ?? null, now);

  const waiting = pendingCount({ pendingSteers, rejectedSteers, queued });
  const statusRows = useMemo(
    () => (activeTurn === null ? [] : ['', ...statusLines(status, statusDetail, seconds, width, undefined, spinner, waiting)]),
    [activeTurn, status, statusDetail, seconds, width, spinner, waiting, theme],
  );
  // While the approval prompt shows the command (or MCP call), the live area does not show it a second
  // time. MCP calls in progress and the wait for a server to start come under the command.
  const commandRows = useMemo(
    () => [
      ...(live.reasoning === undefined || live.reasoning === null || modal !== null ? [] : liveReasoningLines(live.reasoning, width)),
      ...(live.plan ? ['', ...planLines(live.plan, width)] : []),
      ...(live.command === null || modal !== null ? [] : liveCommandLines(live.command, width)),
      ...liveMcpLines({ mcpCalls: modal === null ? live.mcpCalls : undefined, mcpStarting: live.mcpStarting }, width),
    ],
    [live.reasoning, live.plan, live.command, live.mcpCalls, live.mcpStarting, modal, width, theme],
  );

  // The composer's window is half the screen: only the lines it can show are laid out.
  const composerHeight = composerWindow(rows);
  const view = useMemo(() => composerView(composer, width, undefined, composerHeight), [composer, width, composerHeight, theme]);
  const modelPickerHint = modelPicker?.stage === 'effort' ? EFFORT_PICKER_HINT : MODEL_PICKER_HINT;
  const pickerHint =
    settingsPicker !== null
      ? settingsPickerHint(settingsPicker)
      : resumePicker !== null
        ? RESUME_PICKER_HINT
        : rewindMenu !== null
          ? rewindMenu.stage === 'choose'
            ? REWIND_MENU_HINT
            : OVERWRITE_HINT
          : findingsPicker !== null
            ? FINDINGS_PICKER_HINT
            : reviewPicker !== null
              ? reviewPickerHint(reviewPicker)
              : modelPicker !== null
                ? modelPickerHint
                : modePicker !== null
                  ? MODE_PICKER_HINT
                  : null;
  const focusHint = pendingFocus !== null ? PENDING_FOCUS_HINT : pendingEdit !== null ? PENDING_EDIT_HINT : null;
  const hint =
    quitHint && quitArm !== null
      ? quitHintText(quitArm.key)
      : modal !== null
        ? APPROVAL_HINT
        : backtrackPrimed
          ? BACKTRACK_HINT
          : (pickerHint ?? focusHint ?? view.hint);
  const statusLine = useStore(store, (s) => s.statusLine ?? null);
  const gitBranch = useStore(store, (s) => s.gitBranch ?? null);
  const contextLeft = useStore(store, (s) => contextLeftOf(s.footer.model, s.tokenUsage?.last));
  const usedTokens = useStore(store, (s) => s.tokenUsage?.total.totalTokens ?? null);
  const footerText = useMemo(() => {
    const items = statusLineItems(statusLine, {
      model: footer.model,
      effort: footer.effort,
      contextLeft,
      usedTokens,
      cwd: footer.cwd,
      branch: gitBranch,
      sandbox: approvalModeFooter(approvalMode),
    });
    return footerLine({ hint, items, offline: footer.offline, vim: view.vim }, width);
  }, [hint, view.vim, statusLine, gitBranch, contextLeft, usedTokens, footer, approvalMode, width, theme]);

  // The approval prompt, else the /approvals picker, takes the composer's place.
  const modalRows = useRoomRows(
    modal !== null
      ? (room) => ['', ...approvalLines(modal, width, undefined, room)]
      : settingsPicker !== null
        ? (room) => ['', ...settingsPickerLines(settingsPicker, width, undefined, room - 1)]
        : resumePicker !== null
          ? (room) => [
              '',
              ...resumePickerLines(
                resumePicker,
                { width, maxRows: room - 1, nowMs: now(), home: homedir(), currentThreadId: threadId },
                defaultChalk,
              ),
            ]
          : rewindMenu !== null
            ? (room) => ['', ...rewindMenuLines(rewindMenu, width, footer.cwd, undefined, room - 1)]
            : findingsPicker !== null
              ? (room) => ['', ...findingsPickerLines(findings, findingsPicker.selected, width, undefined, room - 1)]
              : reviewPicker !== null
                ? (room) => ['', ...reviewPickerLines(reviewPicker, width, undefined, room - 1)]
                : modelPicker !== null
                  ? (room) => ['', ...modelPickerLines(modelPicker, footer, width, undefined, room)]
                  : modePicker !== null
                    ? () => ['', ...modePickerLines(modePicker.selected, approvalMode, width)]
                    : null,
    [
      modal,
      settingsPicker,
      resumePicker,
      rewindMenu,
      findingsPicker,
      findings,
      reviewPicker,
      threadId,
      now,
      modelPicker,
      modePicker,
      approvalMode,
      footer,
      width,
      theme,
    ],
  );
  // The model's question stands first above the composer, the waiting messages under it.
  const pendingRows = useRoomRows(
    hasPendingInput({ pendingSteers, rejectedSteers, queued }) || question
      ? (room) => {
          const asked = question ? ['', ...questionLines(question, width)] : [];
          if (!hasPendingInput({ pendingSteers, rejectedSteers, queued })) return asked.slice(0, Math.max(1, room));
          const options = { maxLines: Math.max(1, room - 1 - asked.length), ...(platform === undefined ? {} : { platform }) };
          return [
            ...asked,
            '',
            ...previewRows(pendingPreviewLines({ pendingSteers, rejectedSteers, queued, pendingFocus, pendingEdit }, width, options)),
          ];
        }
      : null,
    [question, pendingSteers, rejectedSteers, queued, pendingFocus, pendingEdit, width, platform, theme],
  );
  const layout = layoutScreen({
    rows,
    commands: commandRows,
    status: statusRows,
    pending: pendingRows,
    modal: modalRows,
    attachments: view.attachmentRows,
    composer: view,
    popup: view.popupRows,
    footer: footerText,
  });

  // While the terminal is someone else's (Ctrl+G's editor, Ctrl+T's pager) the same element comes back: React
  // renders nothing new, so Ink writes nothing; the store keeps moving and is drawn on return.
  const lastTree = useRef<React.JSX.Element | null>(null);
  const lastCursor = useRef<{ x: number; y: number } | undefined>(undefined);
  // While a resize settles nothing new is drawn or printed: rows laid out for the old width would land
  // in a terminal that has re-flowed to the new one, beside Ink's erase of a live area whose height it
  // no longer knows, and a burst of deltas in that moment lost or repeated rows. The new size's redraw
  // prints all of it (a new epoch).
  const frozen = (screenSuspended || settling) && lastTree.current !== null;
  // Rendering only plans what goes into the scrollback; the plan counts as printed once it is written.
  const printer = useRef<TranscriptPrinter | null>(null);
  printer.current ??= new TranscriptPrinter();
  const plan: PrinterPlan | null = frozen ? null : printer.current.plan(cells, generation, live, width, layout.tailRoom, rows);
  // The scrollback is ours: new rows go above Ink's live area (Ink's write erases it, prints, redraws
  // it). A layout effect runs after Ink has drawn this commit's frame, so the rows it prints never
  // stand above a live area that still shows them. A new epoch (/clear, /new, a resize) first clears
  // the screen and the scrollback.
  const written = useRef<{ epoch: number; count: number } | null>(null);
  useLayoutEffect(() => {
    if (plan === null) return;
    printer.current!.commit(plan);
    const { epoch, items, more } = plan.frame;
    // The rest of a long transcript in the next frames, with the keys typed meanwhile read in between.
    if (more) setImmediate(() => setRedraws((n) => n + 1));
    const last = written.current;
    const fresh = last === null || last.epoch !== epoch;
    const start = fresh ? 0 : last.count;
    written.current = { epoch, count: items.length };
    // The first epoch prints below whatever the terminal showed before Tiller started.
    const clear = fresh && last !== null ? CLEAR_SCREEN : '';
    if (clear === '' && start >= items.length) return;
    write(
      clear +
        items
          .slice(start)
          .flatMap((item) => item.lines.map((line) => `${line}\n`))
          .join(''),
    );
  });
  const { setCursorPosition } = useCursor();
  if (plan === null) {
    // Ink moves the cursor unless told its place on every commit; the same place means no write.
    setCursorPosition(lastCursor.current);
    return lastTree.current!;
  }
  // On the way out the live area goes: the shell prompt comes back on a clean line below the transcript.
  if (exiting) {
    setCursorPosition(undefined);
    return <Box />;
  }

  const tail = plan.frame.liveAgentRows;
  // The real cursor sits at the caret, so IME candidate windows open where the text goes.
  const cursor = layout.caret === null ? undefined : { x: layout.caret.x, y: tail.length + layout.caret.y };
  lastCursor.current = cursor;
  setCursorPosition(cursor);

  // Sections of rows, not components of their own: the layout needs every part's height before
  // anything is drawn (the caret's row, the room left for the answer), so the rows are built above.
  lastTree.current = (
    <Box flexDirection="column" width={width}>
      <Rows lines={tail} />
      <Rows lines={layout.commands} />
      <Rows lines={layout.status} />
      <Rows lines={layout.pending} />
      <Rows lines={layout.modal} />
      <Rows lines={layout.attachments} />
      <Rows lines={layout.composer} />
      <Rows lines={layout.popup} />
      <Rows lines={layout.footer} />
    </Box>
  );
  return lastTree.current;
}
