/**
 * `chat/approvals/`: the approval prompt and the approval mode. A request from the server waits
 * here for the user's answer (this file); its keys are told apart from typing so a word begun in
 * the draft never answers it (prompt-keys.ts, typing-run.ts); the mode presets of /approvals and
 * Shift+Tab are in approval-modes.ts.
 *
 * Approval requests from the server (shell commands and MCP tool calls), one modal at a time
 * (FIFO): the store shows the first; the user's answer (or the end of the turn) resolves it and
 * shows the next.
 */
import type { CommandApprovalDecision, ServerRequestMap, TillerFileDecision } from '../../../protocol/api.js';
import { withCells, type ApprovalModal, type ChatStore } from '../../store.js';
import { choicesAnswer, type PatchChoices } from './patch-choices.js';

/** A command longer than this is also printed in full above the prompt, which may have to cut it. */
const FULL_COMMAND_LINES = 6;
const FULL_COMMAND_CHARS = 480;
export const FULL_COMMAND_INTRO = 'The command waiting for approval, in full:';

export type ApprovalParams = ServerRequestMap['item/commandExecution/requestApproval']['params'] & {
  /** A patch's approval (patch-approval.ts), asked with the same keys. */
  tillerPatch?: true;
  /** The patch's files, to accept, reject or edit one by one (patch-choices.ts). */
  tillerPatchChoices?: PatchChoices;
};

/** The user's answer; `tillerFiles` when a patch was answered file by file. */
export interface ApprovalAnswer {
  decision: CommandApprovalDecision;
  tillerFiles?: TillerFileDecision[];
}

export class ApprovalQueue {
  private readonly waiting: { params: ApprovalParams; resolve: (answer: ApprovalAnswer) => void }[] = [];

  /** When the prompt now on screen appeared (injected clock). */
  shownAt = -Infinity;

  constructor(
    private readonly store: ChatStore,
    private readonly now: () => number,
  ) {}

  request(params: ApprovalParams): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      this.waiting.push({ params, resolve });
      if (this.waiting.length === 1) this.show();
    });
  }

  answer(decision: CommandApprovalDecision): void {
    this.waiting.shift()?.resolve({ decision });
    this.show();
  }

  /** The patch prompt's file choices now (null: not a patch with files on screen). */
  patchChoices(): PatchChoices | null {
    const modal = this.store.getState().modal;
    return modal?.patchChoices ?? null;
  }

  /** The user changed the choices on screen. */
  setPatchChoices(choices: PatchChoices): void {
    const modal = this.store.getState().modal;
    if (modal?.patchChoices === undefined) return;
    this.store.setState({ modal: { ...modal, patchChoices: choices } });
  }

  /** Enter on a patch prompt: applied as chosen, file by file. */
  answerFiles(): void {
    const choices = this.patchChoices();
    if (choices === null) return;
    this.waiting.shift()?.resolve({ decision: 'accept', tillerFiles: choicesAnswer(choices) });
    this.show();
  }

  /** Every open request is cancelled (its turn ended, or the app is closing). */
  cancelAll(): void {
    for (const w of this.waiting.splice(0)) w.resolve({ decision: 'cancel' });
    this.show();
  }

  private show(): void {
    const next = this.waiting[0];
    if (next === undefined) {
      this.store.setState({ modal: null });
      return;
    }
    const { command, cwd, reason, tillerMcpToolCall: mcp } = next.params;
    if (command.split('\n').length > FULL_COMMAND_LINES || command.length > FULL_COMMAND_CHARS) {
      this.store.setState((s) => withCells(s, [{ kind: 'info', text: `${FULL_COMMAND_INTRO}\n${command}` }]));
    }
    this.shownAt = this.now();
    // A question for the user closes the transcript pager and the /approvals and /model pickers, so it is seen.
    const modal: ApprovalModal = {
      kind: 'approval',
      command,
      cwd,
      reason,
      ...(mcp === undefined ? {} : { mcp: { server: mcp.server, tool: mcp.tool } }),
      ...(next.params.tillerPatch ? { patch: true as const } : {}),
      ...(next.params.tillerPatchChoices === undefined ? {} : { patchChoices: next.params.tillerPatchChoices }),
    };
    this.store.setState({ modal, pager: null, modePicker: null, modelPicker: null });
  }
}
