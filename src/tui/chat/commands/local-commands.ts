/**
 * `chat/commands/`: what the user asks of Tiller itself rather than of the model: slash
 * commands, `!` shell commands, /model, /mcp, /skills and /feedback. Each is a pure builder of
 * text or rows beside this dispatcher, so adding a command touches this folder and not the turn
 * machinery.
 *
 * What runs without the model: `!` shell commands (docs/codex-parity.md#shell-escape), slash commands,
 * Ctrl+L and Ctrl+O. A running `!` command holds messages back; when the last one ends the controller resumes the queue drain.
 * Anything that touches turns, threads or the composer goes through the host (the controller).
 */
import { errorMessage } from '../../../error-message.js';
import type { TillerInputReport, TillerInstructionFile, V2UserInput } from '../../../protocol/api.js';
import { hasProjectDoc, INIT_PROMPT } from '../../../runtime/core/project-instructions.js';
import { draftSubmission } from '../../composer/submission.js';
import { INSPECT_DRAFT_TITLE, INSPECT_LAST_SENT_TITLE } from '../../overlay/inspector.js';
import { buildUserInputs, type SkillRef } from '../../routing.js';
import { withCells, type ChatStore, type NewCell } from '../../store.js';
import type { InspectorState } from '../../store-types.js';
import { helpText, skillsText, statusText } from './commands.js';
import type { CopyResult } from '../../terminal/clipboard-copy.js';
import { DiffExplorer } from '../../diff-explorer/explorer.js';
import { defaultChalk } from '../../components/row-shapes.js';
import type { AppServerClient } from '../../../protocol/api.js';
import { buildFeedbackReport, type FeedbackSink, feedbackWrittenText } from './feedback.js';
import { mcpServersCell, type McpServerRow } from './mcp.js';
import { SessionCommands } from './session-commands.js';
import { SettingsPickers } from '../settings/settings-pickers.js';
import type { TillerCommandSession } from '../../../protocol/api.js';

export const EMPTY_SHELL_MESSAGE = 'Prefix a command with ! to run it locally';
export const NOTHING_TO_COPY_MESSAGE = 'There is no answer to copy yet.';

export function copiedMessage(text: string, via: string): string {
  return `Copied the last answer (${[...text].length} characters) to the clipboard via ${via}.`;
}
export const EMPTY_SHELL_HINT = 'Example: !ls';
/** /init where the cwd has its own AGENTS.md (as Codex: it is never overwritten). */
export const INIT_EXISTS_MESSAGE = 'AGENTS.md already exists here. Skipping /init to avoid overwriting it.';

export interface LocalShellResult {
  output: string;
  exitCode: number | null;
}

export function unrecognizedCommandText(name: string): string {
  return `Unrecognized command '/${name}'. Type "/" for a list of supported commands.`;
}

export interface LocalCommandsHost {
  runLocalShell(command: string): Promise<LocalShellResult>;
  /** Flips Vim mode in the composer; returns whether it is now on. */
  toggleVim(): boolean;
  newThread(opts?: { announce: boolean }): void;
  /** /approvals: the approval mode picker. */
  openModePicker(): void;
  /** /model: the model and reasoning effort picker. */
  openModelPicker(): void;
  compact(): void;
  /** /review: the picker of what to review. */
  review(): void;
  /** /findings: the latest review's findings to act on. */
  findings(): void;
  /** Where /statusline and /theme save (`home`; absent: not saved) and the footer's items at start. */
  config: { home?: string; statusLine?: string[] };
  requestExit(): void;
  /** The last `!` command ended: messages held back may go now. */
  shellsIdle(): void;
  threadId(): string | null;
  skills(): readonly SkillRef[];
  lastSent(): V2UserInput[] | null;
  /** /inspect: what the next request carries for this input (tiller/inspectInput). */
  inspectInput(input: V2UserInput[]): Promise<TillerInputReport>;
  feedback: FeedbackSink;
  /** /mcp: the configured MCP servers and their state (mcpServerStatus/list). */
  mcpServers(): Promise<McpServerRow[]>;
  /** The AGENTS.md files the thread's model was given (/status). */
  instructionFiles(): TillerInstructionFile[];
  /** Sends text as the user's next message (/init's prompt). */
  sendPrompt(text: string): void;
  /** /resume: the picker of saved sessions. */
  openResumePicker(): void;
  /** /fork: the conversation so far in a new session. */
  fork(): void;
  /** /undo and /redo: the rewind menu (chat/rewind/rewind.ts). */
  undo(): void;
  redo(): void;
  /** The directory /init writes AGENTS.md into. */
  cwd: string;
  /** /ps and /stop: tiller/commandSessions/list and /stop. */
  commandSessions(threadId: string): Promise<TillerCommandSession[]>;
  stopCommandSessions(threadId: string, id: number | null): Promise<number[]>;
  /** /rename: thread/name/set. */
  renameThread(threadId: string, name: string): Promise<void>;
  /** The runtime, for /diff's checkpoints (tiller/checkpoints/list, diff, restore). */
  request: AppServerClient['request'];
  /** Raw bytes to the terminal (/diff's `y`: OSC 52). */
  writeToTerminal?: (data: string) => void;
  /** The screen's size (/diff's explorer pages by it). */
  screenSize?: () => { columns: number; rows: number };
  /** Ctrl+O; absent, copying says it is not available. */
  copyToClipboard?: (text: string) => Promise<CopyResult>;
  platform?: NodeJS.Platform;
}

export class LocalCommands {
  private userShells = 0;
  private readonly sessionCommands: SessionCommands;
  /** /statusline and /theme; while one is open it takes the keys (input-router.ts). */
  readonly settings: SettingsPickers;
  /** /diff's overlay: while open it takes every key (input-router.ts asks it first after the pager). */
  readonly explorer: DiffExplorer;

  constructor(
    private readonly store: ChatStore,
    private readonly host: LocalCommandsHost,
  ) {
    this.settings = new SettingsPickers({
      store,
      home: host.config.home ?? null,
      cwd: host.cwd,
      statusLine: host.config.statusLine ?? null,
      cell: (cell) => this.cell(cell),
    });
    this.explorer = new DiffExplorer({
      store,
      cwd: host.cwd,
      threadId: () => host.threadId(),
      request: (method, params) => host.request(method, params),
      ...(host.writeToTerminal !== undefined ? { writeToTerminal: host.writeToTerminal } : {}),
      size: host.screenSize ?? (() => ({ columns: 80, rows: 24 })),
      chalk: defaultChalk,
    });
    this.sessionCommands = new SessionCommands({
      threadId: () => host.threadId(),
      cells: () => store.getState().cells,
      cell: (cell) => this.cell(cell),
      commandSessions: (threadId) => host.commandSessions(threadId),
      stopCommandSessions: (threadId, id) => host.stopCommandSessions(threadId, id),
      renameThread: (threadId, name) => host.renameThread(threadId, name),
      cwd: host.cwd,
      ...(host.copyToClipboard !== undefined ? { copyToClipboard: host.copyToClipboard } : {}),
    });
  }

  /** A `!` command is running (messages wait for it instead of starting a turn). */
  get shellRunning(): boolean {
    return this.userShells > 0;
  }

  /** `!cmd`: runs it into a cell; `!` alone shows how to use it. */
  runUserShell(raw: string): void {
    const command = raw.trim();
    if (command === '') {
      this.cell({ kind: 'info', text: EMPTY_SHELL_MESSAGE, hint: EMPTY_SHELL_HINT });
      return;
    }
    this.runLocal(command);
  }

  /** Ctrl+L: a new transcript generation wipes the screen and scrollback; the cells and the thread stay. */
  clearScreen(): void {
    this.store.setState((s) => ({ transcriptGeneration: s.transcriptGeneration + 1 }));
  }

  /** Ctrl+O: the last finished answer, as the model wrote it (markdown), onto the clipboard. */
  copyLastAnswer(): void {
    const answer = this.store.getState().cells.findLast((c) => c.kind === 'agent');
    if (answer?.kind !== 'agent') return this.cell({ kind: 'info', text: NOTHING_TO_COPY_MESSAGE });
    const copy = this.host.copyToClipboard;
    if (copy === undefined) return this.cell({ kind: 'error', text: 'Copying is not available here.' });
    const failed = (reason: string): void => this.cell({ kind: 'error', text: `Could not copy: ${reason}` });
    copy(answer.markdown)
      .then((r) => ('error' in r ? failed(r.error) : this.cell({ kind: 'info', text: copiedMessage(answer.markdown, r.via) })))
      .catch((error: unknown) => failed(errorMessage(error)));
  }

  /** Runs a slash command; `inComposer`: typed there (/inspect reads the draft), not dequeued; `args`: what followed the name. */
  dispatchSlash(name: string, inComposer: boolean, args = ''): void {
    switch (name) {
      case 'vim':
        this.cell({ kind: 'info', text: this.host.toggleVim() ? 'Vim mode enabled.' : 'Vim mode disabled.' });
        return;
      case 'new':
        return this.host.newThread();
      case 'resume':
        return this.host.openResumePicker();
      case 'fork':
        return this.host.fork();
      case 'undo':
        return this.host.undo();
      case 'redo':
        return this.host.redo();
      case 'compact':
        return this.host.compact();
      case 'review':
        return this.host.review();
      case 'findings':
        return this.host.findings();
      case 'statusline':
        return this.settings.openStatusLine();
      case 'theme':
        return this.settings.openTheme();
      case 'approvals':
        return this.host.openModePicker();
      case 'model':
        return this.host.openModelPicker();
      case 'clear':
        // As Codex: a clean screen and a new chat, without a notice on the fresh screen.
        return this.host.newThread({ announce: false });
      case 'quit':
      case 'exit':
        return this.host.requestExit();
      case 'diff':
        return this.diff();
      case 'status': {
        const s = this.store.getState();
        this.cell({
          kind: 'info',
          text: statusText({
            ...s.footer,
            threadId: this.host.threadId(),
            approvalMode: s.approvalMode,
            tokenUsage: s.tokenUsage,
            instructions: this.host.instructionFiles(),
          }),
        });
        return;
      }
      case 'init':
        return this.init();
      case 'help':
        this.cell({ kind: 'info', text: helpText(this.host.platform) });
        return;
      case 'skills':
        this.cell({ kind: 'info', text: skillsText(this.host.skills()) });
        return;
      case 'inspect':
        return this.inspect(inComposer);
      case 'feedback':
        return this.feedback();
      case 'mcp':
        return this.mcp();
      case 'ps':
        return this.sessionCommands.ps();
      case 'stop':
        return this.sessionCommands.stop(args);
      case 'rename':
        return this.sessionCommands.rename(args);
      case 'export':
        return this.sessionCommands.export(args);
      default:
        this.cell({ kind: 'info', text: unrecognizedCommandText(name) });
        return;
    }
  }

  /** /init: asks the model to write AGENTS.md, unless the directory has one. */
  private init(): void {
    if (hasProjectDoc(this.host.cwd)) this.cell({ kind: 'info', text: INIT_EXISTS_MESSAGE });
    else this.host.sendPrompt(INIT_PROMPT);
  }

  /** /diff: the explorer overlay; run here, not as a `!` command, so the model is not sent what the user only looked at. */
  private diff(): void {
    this.explorer.show();
  }

  /** /mcp: a cell once mcpServerStatus/list has answered. */
  private mcp(): void {
    this.host.mcpServers().then(
      (servers) => this.cell(mcpServersCell(servers)),
      (error: unknown) => this.cell({ kind: 'error', text: `Could not list the MCP servers: ${errorMessage(error)}` }),
    );
  }

  private feedback(): void {
    try {
      const report = buildFeedbackReport(this.store.getState(), this.host.feedback.environment(), new Date());
      this.cell({ kind: 'info', text: feedbackWrittenText(this.host.feedback.save(report)) });
    } catch (error) {
      this.cell({ kind: 'error', text: `Could not write the feedback report: ${errorMessage(error)}` });
    }
  }

  /**
   * /inspect: the pager shows what the next request carries for the draft (the composer took out only
   * the `/inspect` typed, so the draft stays as it is), else for the last message sent.
   */
  private inspect(inComposer: boolean): void {
    const draft = inComposer ? draftSubmission(this.store.getState().composer) : null;
    const input = draft === null ? this.host.lastSent() : buildUserInputs(draft, { skills: this.host.skills() });
    if (input === null) return this.cell({ kind: 'info', text: 'Nothing to inspect.', hint: 'Type /inspect anywhere in a draft.' });
    const view: InspectorState = {
      title: draft === null ? INSPECT_LAST_SENT_TITLE : INSPECT_DRAFT_TITLE,
      report: null,
      error: null,
      withSteers: draft !== null,
    };
    this.store.setState({ pager: { top: 0, inspect: view } });
    // The answer fills the view it was asked for, if that is still open.
    const fill = (update: Partial<InspectorState>): void => {
      const pager = this.store.getState().pager;
      if (pager?.inspect === view) this.store.setState({ pager: { ...pager, inspect: { ...view, ...update } } });
    };
    this.host.inspectInput(input).then(
      (report) => fill({ report }),
      (error: unknown) => fill({ error: errorMessage(error) }),
    );
  }

  /** Runs a `!` command into a cell; messages wait for it meanwhile. */
  private runLocal(command: string): void {
    this.userShells += 1;
    this.host
      .runLocalShell(command)
      .then(
        (r) =>
          this.cell({
            kind: 'command',
            command,
            output: r.output,
            exitCode: r.exitCode,
            status: r.exitCode === 0 ? 'completed' : 'failed',
            source: 'user',
          }),
        (error: unknown) =>
          this.cell({ kind: 'command', command, output: errorMessage(error), exitCode: null, status: 'failed', source: 'user' }),
      )
      .finally(() => {
        this.userShells -= 1;
        if (this.userShells === 0) this.host.shellsIdle();
      });
  }

  private cell(cell: NewCell): void {
    this.store.setState((s) => withCells(s, [cell]));
  }
}
