/**
 * The chat screen's state (zustand vanilla store). The ChatController is the only writer (but for
 * the transcript pager's scroll position, kept by overlay/pager-screen.ts); the Ink
 * components subscribe with selectors and render it. Finished transcript cells are append-only so
 * the screen can print them once (Ink <Static>); what is still changing lives in `live`.
 *
 * Cell text never carries its glyph: components draw `• ` before info cells, `■ ` before error
 * cells, `⚠ ` before warning cells and `› ` before user prompts.
 */
import { createStore } from 'zustand/vanilla';
import { type Batchable, batchable } from './store-batch.js';
import type { ReasoningEffort, TokenUsageBreakdown } from '../protocol/api.js';
import { redactSecrets } from '../protocol/redact.js';
import type { TextElement } from '../protocol/user-input.js';
import { DEFAULT_APPROVAL_MODE, type ApprovalMode } from './chat/approval-modes.js';
import type { LiveMcpCall, McpCellStatus, McpResultSummary, McpServerRow } from './chat/mcp.js';
import type { ComposerState } from './composer/state.js';
import type { PendingPaste } from './composer/history.js';
import type { QueuedInputAction, Submission } from './composer/types.js';
import type { PagerState } from './overlay/transcript-pager.js';
import type { BacktrackState } from './chat/backtrack.js';
import type { ResumePickerState } from './chat/resume-picker.js';

export type CommandCellStatus = 'completed' | 'failed' | 'declined' | 'interrupted';

export type TranscriptCell =
  | {
      kind: 'user';
      id: number;
      text: string;
      textElements: TextElement[];
      /** `[Image #1] shot.png`-style labels of the attachments sent with the prompt. */
      attachmentLabels: string[];
      /** The turn this prompt started (Esc-Esc backtrack forks before it); null for a steer or before the server answers. */
      turnId: string | null;
      /** A steer's delivery receipt (`delivered after $ cargo test (sampling 2) · 4.1 s after Enter`), drawn dim under it. */
      receipt?: string;
    }
  | { kind: 'agent'; id: number; markdown: string }
  /** The session header, the first cell (session-header.ts): values as shown, the directory with `~`. */
  | {
      kind: 'header';
      id: number;
      version: string;
      model: string;
      effort: string | null;
      /** The provider label, or the offline model's note. */
      provider: string;
      directory: string;
      approvals: string;
      profile: string | null;
    }
  | { kind: 'info'; id: number; text: string; hint?: string }
  | { kind: 'error'; id: number; text: string }
  | { kind: 'warning'; id: number; text: string }
  | {
      kind: 'command';
      id: number;
      command: string;
      output: string;
      exitCode: number | null;
      status: CommandCellStatus;
      /** `user` for `!cmd` and `/diff` run locally, `model` for the shell tool. */
      source: 'user' | 'model';
    }
  /** An MCP tool call the model made (chat/mcp.ts): `arguments` as compact JSON, `result` null when it never ended. */
  | {
      kind: 'mcp';
      id: number;
      server: string;
      tool: string;
      arguments: string;
      status: McpCellStatus;
      result: McpResultSummary | null;
      durationMs: number | null;
    }
  /** `/mcp`: the configured servers as mcpServerStatus/list gave them. */
  | { kind: 'mcpServers'; id: number; servers: McpServerRow[] };

/** A cell as the controller hands it over; the store assigns the id. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewCell = DistributiveOmit<TranscriptCell, 'id'>;

/**
 * Where a steer stands (its row says so): the steer request is on its way, or the runtime holds it
 * for the next tool call.
 */
export type SteerState = 'sending' | 'waiting';

/** A message waiting above the composer: a pending steer, a rejected steer or a queued follow-up. */
export interface PendingInput {
  id: number;
  /** Preview text (the submitted text; attachment labels when the text is empty). */
  text: string;
  attachmentCount: number;
  /** Everything needed to send it later or restore it into the composer. */
  submission: Submission;
  /** Pending steers: compareKey of the items sent, to match the committed userMessage item (docs/codex-parity.md#pending-steer-rows). */
  compareKey?: string;
  /** Queued follow-ups: how to treat it when it is drained (plain, parseSlash, runShell: docs/codex-parity.md#input-results). */
  action?: QueuedInputAction;
  /** Pending steers: the id the runtime knows it by (`tillerClientId`; the userMessage item's id), null when sent without. */
  clientId?: string | null;
  steerState?: SteerState;
  /** When Enter sent it (injected clock): the receipt says how long delivery took. */
  submittedAtMs?: number;
  /** Rejected steers: why the turn would not take it (`compact turns cannot be steered: queued`). */
  reason?: string;
}

/** Which of the waiting messages has the keyboard (Ctrl+Q), by its id. */
export interface PendingFocus {
  selectedId: number;
}

/** A waiting message being edited in the composer: its lock holds it back, the draft it displaced waits. */
export interface PendingEdit {
  id: number;
  /** The draft that was in the composer, put back when the edit ends. */
  displaced: { draft: Submission; pendingPastes: PendingPaste[] };
}

export interface LiveCommand {
  itemId: string;
  command: string;
  output: string;
}

export interface LiveState {
  /** The streaming agent message, or null when none is streaming. */
  agentText: string | null;
  agentItemId: string | null;
  /** The running shell command and its output so far. */
  command: LiveCommand | null;
  /** MCP tool calls in progress (absent: none). */
  mcpCalls?: readonly LiveMcpCall[];
  /** MCP servers the turn waits for before it can go on (`tiller/mcpServerStarting`; absent: none). */
  mcpStarting?: readonly string[];
}

export interface ApprovalModal {
  kind: 'approval';
  command: string;
  cwd: string;
  reason: string | null;
  /** An MCP tool call asking to run (`command` then reads `server.tool({…})`). */
  mcp?: { server: string; tool: string };
}

export interface FooterInfo {
  model: string;
  /** Provider label, e.g. `openai`, a base URL host, or `offline`. */
  providerLabel: string;
  offline: boolean;
  cwd: string;
  /** The reasoning effort the next turn sends (null: none). */
  effort: ReasoningEffort | null;
}

/** The /model picker: first the model, then its reasoning effort (model-picker.ts). */
export interface ModelPickerState {
  stage: 'model' | 'effort';
  /** The models on offer; null while model/list is answering. */
  models: string[] | null;
  /** Why the list is not the provider's own (model/list's note), or null. */
  note: string | null;
  /** Typed in the model stage: only models containing it are shown. */
  filter: string;
  /** The highlighted row: of the filtered models, or of EFFORT_CHOICES. */
  selected: number;
  /** The model picked in the first stage (the effort stage is for it). */
  model: string | null;
}

export interface ChatState {
  cells: TranscriptCell[];
  /** Bumped by /clear: the screen drops what it printed and starts a new <Static>. */
  transcriptGeneration: number;
  nextCellId: number;
  live: LiveState;
  activeTurn: { id: string; startedAt: number } | null;
  /** Status header while a turn runs (`Working`, `Reconnecting... 2/5`, `Preparing 2 attachments…`). */
  status: string | null;
  statusDetail: string | null;
  /** Local media is being prepared for the model: the status bullet spins. */
  preparingMedia: boolean;
  pendingSteers: PendingInput[];
  rejectedSteers: PendingInput[];
  queued: PendingInput[];
  nextPendingId: number;
  pendingFocus: PendingFocus | null;
  pendingEdit: PendingEdit | null;
  composer: ComposerState;
  modal: ApprovalModal | null;
  /** What the next turn/start sends (Shift+Tab and /approvals change it; a running turn keeps its own). */
  approvalMode: ApprovalMode;
  /** The /approvals picker, open on the highlighted preset (an index into APPROVAL_PRESETS). */
  modePicker: { selected: number } | null;
  modelPicker: ModelPickerState | null;
  footer: FooterInfo;
  threadId: string | null;
  tokenUsage: { total: TokenUsageBreakdown; last: TokenUsageBreakdown } | null;
  /** The `ctrl + c` quit hint is shown until this time (ms, injected clock). */
  quitHintUntil: number | null;
  exitRequested: boolean;
  /** The terminal belongs to another program (Ctrl+G's editor): the screen draws nothing new. */
  screenSuspended: boolean;
  /** Ctrl+T's transcript pager, open on the alternate screen (the chat screen holds still meanwhile). */
  pager: PagerState | null;
  /** Esc-Esc: primed after the first Esc (the footer hints), selecting while the pager highlights a prompt. */
  backtrack: BacktrackState;
  /** `tiller resume` and /resume: the saved sessions to choose from. */
  resumePicker: ResumePickerState | null;
}

/** `batch`: updates inside reach subscribers once (store-batch.ts). */
export type ChatStore = Batchable<ChatState>;

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
    quitHintUntil: null,
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
    if (c.kind === 'mcp' && c.result?.kind === 'error') return { ...c, result: { kind: 'error', message: redactSecrets(c.result.message) }, id: next++ } as TranscriptCell;
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

/** Build a PendingInput for a submission; the caller stores it in one of the three lists. */
export function pendingInputFor(
  state: ChatState,
  submission: Submission,
  extra: Pick<PendingInput, 'compareKey' | 'action' | 'clientId' | 'steerState' | 'submittedAtMs'> = {},
): { input: PendingInput; nextPendingId: number } {
  const text = submission.text !== '' ? submission.text : submission.attachments.map((a) => a.placeholder).join(' ');
  const input: PendingInput = {
    id: state.nextPendingId,
    text,
    attachmentCount: submission.attachments.length,
    submission,
    ...extra,
  };
  return { input, nextPendingId: state.nextPendingId + 1 };
}
