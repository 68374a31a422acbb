/**
 * The chat screen's state types, below the store (store.ts) and the modules that read them; the
 * pager's, backtrack's and MCP's shapes the state holds live here too, so no import goes round.
 *
 * Cell text never carries its glyph: the row builders draw `• ` before info cells, `■ ` before error
 * cells, `⚠ ` before warning cells and `› ` before user prompts.
 */
import type { McpServerState, ReasoningEffort, TokenUsageBreakdown, TurnPlanStep } from '../protocol/api.js';
import type { TillerInputReport } from '../protocol/input-report.js';
import type { ReviewFinding } from '../protocol/review.js';
import type { TextElement } from '../protocol/user-input.js';
import type { ApprovalMode } from './chat/approvals/approval-modes.js';
import type { PatchChoices } from './chat/approvals/patch-choices.js';
import type { ResumePickerState } from './chat/sessions/resume-picker.js';
import type { SettingsPickerState } from './chat/settings/settings-lines.js';
import type { StatusLineItemId } from './components/status-line.js';
import type { PendingPaste } from './composer/history.js';
import type { ComposerState } from './composer/state.js';
import type { QueuedInputAction, Submission } from './composer/types.js';
import type { ExplorerState } from './diff-explorer/explorer-state.js';
import type { QuitArm } from './chat/input/quit-press.js';
import type { LiveCommandOutput } from './chat/turn/live-command-output.js';
import type { Batchable } from './store-batch.js';

/** What a finished MCP call gave back, as the cell shows it (chat/mcp.ts). */
export type McpResultSummary =
  /** `others`: how many non-text items came with the text, and their types. */
  | { kind: 'text'; text: string; others?: { count: number; types: string[] } }
  /** No text content: the count and the types of what came back (`image`, `resource`…). */
  | { kind: 'items'; count: number; types: string[] }
  | { kind: 'error'; message: string };

export type McpCellStatus = 'completed' | 'failed' | 'interrupted';

export interface LiveMcpCall {
  itemId: string;
  server: string;
  tool: string;
  /** Compact JSON of the arguments ('' for none). */
  arguments: string;
  /** The server's last progress message for it. */
  progress?: string;
}

/** One `/mcp` row: a server, its state and its tools. */
export interface McpServerRow {
  name: string;
  status: McpServerState;
  tools: string[];
  error: string | null;
}

/** Esc-Esc backtrack (chat/backtrack.ts). */
export type BacktrackState =
  | { phase: 'idle' }
  | { phase: 'primed' }
  /** `cellId`: the highlighted prompt (a user cell). */
  | { phase: 'selecting'; cellId: number };

/** What a rewind (Esc-Esc backtrack, /undo, /redo) puts back: both, the conversation or the files. */
export type RewindScope = 'both' | 'conversation' | 'files';

/**
 * The rewind menu (chat/rewind/rewind-menu.ts): which of the three to put back, then, when files
 * changed outside Tiller since, whether to overwrite them. `subject`: the prompt of the turn;
 * `why`: why the conversation or the files cannot be put back (null: they can).
 */
export type RewindMenuState =
  | {
      stage: 'choose';
      direction: 'undo' | 'redo';
      subject: string;
      why: { conversation: string | null; files: string | null };
      selected: number;
    }
  | { stage: 'overwrite'; direction: 'undo' | 'redo'; subject: string; scope: RewindScope; paths: string[]; selected: number };

/** /inspect in the pager (overlay/inspector.ts). */
export interface InspectorState {
  title: string;
  /** Null until the runtime answers. */
  report: TillerInputReport | null;
  error: string | null;
  /** The draft (not the last message sent): pending steers go in the same request. */
  withSteers: boolean;
}

/** Ctrl+T's transcript pager (overlay/transcript-pager.ts). */
export interface PagerState {
  /** The first line shown, or null to follow the end. */
  top: number | null;
  /** Backtrack: the id of the prompt cell drawn highlighted. */
  highlight?: number;
  /** /inspect: the pager shows the next request instead of the transcript. */
  inspect?: InspectorState;
  /** /diff: the explorer (diff-explorer/) has the screen and its keys. */
  explorer?: ExplorerState;
}

export type PatchCellStatus = 'pending' | 'completed' | 'failed' | 'declined' | 'interrupted';
export interface PatchCellFile {
  /** Relative to the session's directory when inside it. */
  path: string;
  kind: 'add' | 'delete' | 'update';
  movePath: string | null;
  /** Unified diff hunks (an update), or the whole text (add, delete). */
  diff: string;
  added: number;
  removed: number;
}

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
      /** How long it ran, when known. */
      durationMs?: number | null;
      /** `user` for `!cmd` run locally, `model` for the shell tool. */
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
  /** An image the model looked at (view_image), by its path. */
  | { kind: 'imageView'; id: number; path: string }
  /** A hosted web search the server ran for the model: the line `query` shows. */
  | { kind: 'webSearch'; id: number; query: string }
  /** The model's plan (update_plan) as it stood at the turn's end. */
  | { kind: 'plan'; id: number; explanation: string | null; steps: TurnPlanStep[] }
  /** An apply_patch (chat/turn/patch-cell.ts): per file its path, +/− counts and diff; `pending` while it waits for approval. */
  | { kind: 'patch'; id: number; status: PatchCellStatus; files: PatchCellFile[] }
  /** Files commands (not apply_patch) changed in a turn, found from its checkpoints (chat/turn/command-changes-cell.ts). */
  | { kind: 'commandChanges'; id: number; files: PatchCellFile[] }
  /** `/mcp`: the configured servers as mcpServerStatus/list gave them. */
  | { kind: 'mcpServers'; id: number; servers: McpServerRow[] }
  /** The model's reasoning summary: one dim line in the transcript, whole in the Ctrl+T pager. */
  | { kind: 'reasoning'; id: number; text: string }
  /** A review's findings (chat/review/review-lines.ts): the verdict's explanation, then one row group per finding. */
  | { kind: 'review'; id: number; explanation: string; findings: ReviewFinding[] };

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
  /** Its start and its latest part (chat/live-command-output.ts). */
  output: LiveCommandOutput;
}

export interface LiveState {
  /** The streaming agent message, or null when none is streaming. */
  agentText: string | null;
  agentItemId: string | null;
  /** The running shell command and its output so far. */
  command: LiveCommand | null;
  /** MCP tool calls in progress (absent: none). */
  mcpCalls?: readonly LiveMcpCall[];
  /** The turn's plan (turn/plan/updated), drawn live and redrawn on each update; a cell at the turn's end. */
  plan?: { explanation: string | null; steps: TurnPlanStep[] } | null;
  /** MCP servers the turn waits for before it can go on (`tiller/mcpServerStarting`; absent: none). */
  mcpStarting?: readonly string[];
  /** The reasoning summary streaming now (absent or null: none). */
  reasoning?: string | null;
}

export interface ApprovalModal {
  kind: 'approval';
  command: string;
  cwd: string;
  reason: string | null;
  /** An MCP tool call asking to run (`command` then reads `server.tool({…})`). */
  mcp?: { server: string; tool: string };
  /** A patch asking to be applied (`command` names its files; its diff is the cell above). */
  patch?: true;
  /** Its files, each accepted, rejected or edited (chat/approvals/patch-choices.ts). */
  patchChoices?: PatchChoices;
}

/** The model's questions (request_user_input) shown above the composer, one at a time (chat/questions/). */
export interface QuestionPrompt {
  header: string;
  question: string;
  options: readonly { label: string; description: string }[];
  /** Which question of how many (1-based). */
  number: number;
  count: number;
  /** The highlighted option. */
  selected: number;
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

/** A row of the /model picker: a model, and the provider serving it (null: the thread's own, unnamed). */
export interface ModelChoice {
  model: string;
  provider: string | null;
  providerName: string | null;
}

/** The /model picker: first the model, then its reasoning effort (model-picker.ts). */
export interface ModelPickerState {
  stage: 'model' | 'effort';
  /** The models on offer, of every provider; null while model/list is answering. */
  models: ModelChoice[] | null;
  /** Why the list is not the provider's own (model/list's note), or null. */
  note: string | null;
  /** Typed in the model stage: only models containing it are shown. */
  filter: string;
  /** The highlighted row: of the filtered models, or of EFFORT_CHOICES. */
  selected: number;
  /** The model picked in the first stage (the effort stage is for it). */
  model: string | null;
  /** Its provider (null: the thread's own). */
  provider?: string | null;
  /** The provider the next turn goes to, as model/list names it (marks the current row). */
  currentProvider?: string | null;
}

/** A commit the /review picker offers. */
export interface ReviewCommit {
  sha: string;
  subject: string;
}

/** The /review picker (chat/review/review-picker.ts): the menu, then a list or the custom line. */
export interface ReviewPickerState {
  stage: 'menu' | 'branch' | 'commit' | 'custom';
  selected: number;
  /** The branch / commit stage's list; null while git answers. */
  branches: string[] | null;
  commits: ReviewCommit[] | null;
  /** The custom stage's line. */
  text: string;
  /** Why the stage cannot go on (git failed, no branch, empty instructions), or null. */
  error: string | null;
}

export interface ChatState {
  cells: TranscriptCell[];
  /** Bumped by /clear, /new and Ctrl+L: the screen begins a new epoch of its scrollback (components/printer.ts). */
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
  /** The model's question waiting for an answer (absent or null: none). */
  question?: QuestionPrompt | null;
  /** What the next turn/start sends (Shift+Tab and /approvals change it; a running turn keeps its own). */
  approvalMode: ApprovalMode;
  /** The /approvals picker, open on the highlighted preset (an index into APPROVAL_PRESETS). */
  modePicker: { selected: number } | null;
  modelPicker: ModelPickerState | null;
  /** /review's picker (absent or null: closed). */
  reviewPicker?: ReviewPickerState | null;
  /** /findings: the latest review's findings, the highlighted one (absent or null: closed). */
  findingsPicker?: { selected: number } | null;
  /** /statusline and /theme (absent or null: closed). */
  settingsPicker?: SettingsPickerState | null;
  /** The footer's items (`[tui] status_line`); absent or null: the default footer. */
  statusLine?: StatusLineItemId[] | null;
  /** The cwd's Git branch for the footer's `git-branch` (absent or null: none known). */
  gitBranch?: string | null;
  footer: FooterInfo;
  threadId: string | null;
  tokenUsage: { total: TokenUsageBreakdown; last: TokenUsageBreakdown } | null;
  /** A first Ctrl+C / Ctrl+D: the footer says the next one quits, until `until` (ms, injected clock). */
  quitHint: QuitArm | null;
  exitRequested: boolean;
  /** The terminal belongs to another program (Ctrl+G's editor): the screen draws nothing new. */
  screenSuspended: boolean;
  /** Ctrl+T's transcript pager, open on the alternate screen (the chat screen holds still meanwhile). */
  pager: PagerState | null;
  /** Esc-Esc: primed after the first Esc (the footer hints), selecting while the pager highlights a prompt. */
  backtrack: BacktrackState;
  /** The rewind menu of Esc-Esc backtrack, /undo and /redo (absent or null: closed). */
  rewind?: RewindMenuState | null;
  /** `tiller resume` and /resume: the saved sessions to choose from. */
  resumePicker: ResumePickerState | null;
}

/** `batch`: updates inside reach subscribers once (store-batch.ts). */
export type ChatStore = Batchable<ChatState>;
