/**
 * The chat screen's state (zustand vanilla store). The ChatController is the only writer (but for
 * the transcript pager's scroll position, kept by overlay/pager-screen.ts); the screen subscribes
 * with selectors and renders it. Finished transcript cells are append-only so the screen can print
 * them once; what is still changing lives in `live`. The state's types are in store-types.ts.
 */
import { createStore } from 'zustand/vanilla';
import { batchable } from './store-batch.js';
import { redactSecrets } from '../protocol/redact.js';
import { DEFAULT_APPROVAL_MODE } from './chat/approvals/approval-modes.js';
import type { ComposerState } from './composer/state.js';
import type { Submission } from './composer/types.js';
import type { ChatState, ChatStore, FooterInfo, LiveState, NewCell, PendingInput, TranscriptCell } from './store-types.js';

export type {
  ApprovalModal,
  ChatState,
  ChatStore,
  CommandCellStatus,
  FooterInfo,
  LiveCommand,
  LiveState,
  ModelPickerState,
  NewCell,
  PendingEdit,
  PendingFocus,
  PendingInput,
  SteerState,
  TranscriptCell,
} from './store-types.js';

export const EMPTY_LIVE: LiveState = { agentText: null, agentItemId: null, command: null };

export function initialChatState(composer: ComposerState, footer?: Partial<FooterInfo>): ChatState {
  return {
    cells: [],
    transcriptGeneration: 0,
    nextCellId: 1,
    live: EMPTY_LIVE,
    activeTurn: null,
    status: null,
    statusDetail: null,
    preparingMedia: false,
    pendingSteers: [],
    rejectedSteers: [],
    queued: [],
    nextPendingId: 1,
    pendingFocus: null,
    pendingEdit: null,
    composer,
    modal: null,
    approvalMode: DEFAULT_APPROVAL_MODE,
    modePicker: null,
    modelPicker: null,
    footer: { model: '', providerLabel: '', offline: false, cwd: '', effort: null, ...footer },
    threadId: null,
    tokenUsage: null,
    quitHint: null,
    exitRequested: false,
    screenSuspended: false,
    pager: null,
    backtrack: { phase: 'idle' },
    resumePicker: null,
  };
}

export function createChatStore(composer: ComposerState, footer?: Partial<FooterInfo>): ChatStore {
  return batchable(createStore<ChatState>()(() => initialChatState(composer, footer)));
}

// ---- pure updaters (the controller applies them with store.setState) --------------------------

/** Append finished cells; ids are assigned here so they stay unique and increasing. */
export function withCells(state: ChatState, cells: NewCell[]): Pick<ChatState, 'cells' | 'nextCellId'> {
  let next = state.nextCellId;
  // Every error and warning cell is made here: the one place a secret quoted in one is removed (an MCP call's error too).
  const added = cells.map((c) => {
    if (c.kind === 'error' || c.kind === 'warning') return { ...c, text: redactSecrets(c.text), id: next++ } as TranscriptCell;
    if (c.kind === 'mcp' && c.result?.kind === 'error')
      return { ...c, result: { kind: 'error', message: redactSecrets(c.result.message) }, id: next++ } as TranscriptCell;
    return { ...c, id: next++ } as TranscriptCell;
  });
  return { cells: [...state.cells, ...added], nextCellId: next };
}

/** The prompt cell `cellId` started turn `turnId` (a cell already printed keeps its rows: the id is not shown). */
export function withUserTurnId(state: ChatState, cellId: number, turnId: string): Pick<ChatState, 'cells'> | Record<string, never> {
  const at = state.cells.findIndex((c) => c.id === cellId);
  const cell = state.cells[at];
  if (cell?.kind !== 'user') return {};
  const cells = [...state.cells];
  cells[at] = { ...cell, turnId };
  return { cells };
}

/** A waiting message's preview: its text, or its attachments' labels when it has none. */
export function pendingPreviewText(submission: Submission): string {
  return submission.text !== '' ? submission.text : submission.attachments.map((a) => a.placeholder).join(' ');
}

/** Build a PendingInput for a submission; the caller stores it in one of the three lists. */
export function pendingInputFor(
  state: ChatState,
  submission: Submission,
  extra: Pick<PendingInput, 'compareKey' | 'action' | 'clientId' | 'steerState' | 'submittedAtMs'> = {},
): { input: PendingInput; nextPendingId: number } {
  const input: PendingInput = {
    id: state.nextPendingId,
    text: pendingPreviewText(submission),
    attachmentCount: submission.attachments.length,
    submission,
    ...extra,
  };
  return { input, nextPendingId: state.nextPendingId + 1 };
}
