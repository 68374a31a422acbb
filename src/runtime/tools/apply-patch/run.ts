/**
 * One patch, from its text to the model's answer, shared by the apply_patch tool and by a shell
 * call that is an `apply_patch <<'EOF'` heredoc (shell, exec_command): parse, compute every file's
 * change, check the paths, ask where the policy says, write, report as a `fileChange` item.
 */
import { NoApproverError } from '../../core/no-approver.js';
import type { FileChangeApprovalResult, FileUpdateChange, PatchApplyStatus, ThreadItem } from '../../../protocol/api.js';
import { callOutput, type FunctionCall, type ToolCallResult } from '../../core/function-call.js';
import { newId } from '../../core/ids.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import { allRejectedOutput, selectChanges, selectionNotes } from './decision.js';
import { PatchApplyError, type PlannedChange, planPatch, successSummary, writePlan } from './apply.js';
import { PatchParseError, parsePatch } from './parser.js';
import { assessPatch, resolvedTarget } from './permissions.js';
import { PATCH_DECLINED_OUTPUT, patchRunOutput, verificationFailed } from './spec.js';

export interface PatchRequest {
  services: TurnServices;
  turn: ActiveTurn;
  call: FunctionCall;
  patch: string;
  /** Where relative paths resolve: the turn's cwd, or a heredoc's `cd` directory under it. */
  cwd: string;
}

export function fileUpdateChanges(changes: readonly PlannedChange[]): FileUpdateChange[] {
  return changes.map((change) => ({
    path: change.path,
    kind: change.kind === 'update' ? { type: 'update', move_path: change.movePath } : { type: change.kind },
    diff: change.diff,
  }));
}

/** Told to the model when the patch needs an approval and no one is there to give it (`tiller exec`). */
export const PATCH_UNATTENDED_OUTPUT =
  "apply_patch was not applied: it needs the user's approval (it writes outside the sandbox's writable roots) and no user is here to give it. Nothing was written.";

async function ask(
  services: TurnServices,
  itemId: string,
  reason: string | null,
): Promise<FileChangeApprovalResult | { decision: 'unattended' }> {
  try {
    return await services.requestFileChangeApproval({ itemId, reason, grantRoot: null });
  } catch (error) {
    // Nothing is written that nobody approved; a missing approver is not a decline.
    return { decision: error instanceof NoApproverError ? 'unattended' : 'decline' };
  }
}

function targetPaths(changes: readonly PlannedChange[]): string[] {
  return changes.flatMap((change) => (change.movePath === null ? [change.path] : [change.path, change.movePath]));
}

export async function runPatch({ services, turn, call, patch, cwd }: PatchRequest): Promise<ToolCallResult> {
  const started = services.now();
  const answer = (text: string, aborted = false): ToolCallResult => ({ output: callOutput(call, text), aborted });
  let changes: PlannedChange[];
  try {
    changes = await planPatch(parsePatch(patch), cwd);
  } catch (error) {
    if (error instanceof PatchParseError || error instanceof PatchApplyError) return answer(verificationFailed(error.message));
    throw error;
  }
  const paths = targetPaths(changes);
  const context = turn.context;
  const permission = assessPatch(paths, {
    cwd: context.cwd,
    sandboxPolicy: context.sandboxPolicy,
    approvalPolicy: context.approvalPolicy,
    config: services.config,
    sessionPaths: services.approvals.patchPaths,
  });
  const itemId = newId();
  const item = (status: PatchApplyStatus): ThreadItem => ({ type: 'fileChange', id: itemId, changes: fileUpdateChanges(changes), status });
  let notes = '';
  const complete = (status: PatchApplyStatus): void => {
    const done = item(status);
    turn.openItems.delete(itemId);
    turn.toolItemCompleted(done);
    services.events.itemCompleted(done);
  };
  services.events.itemStarted(item('inProgress'));
  if (permission.type === 'refuse') {
    complete('declined');
    return answer(permission.message);
  }
  if (permission.type === 'ask') {
    turn.openItems.set(itemId, item('declined'));
    const { decision, ...answered } = await ask(services, itemId, permission.reason);
    if (turn.signal.aborted || decision === 'cancel') {
      complete('declined');
      if (!turn.signal.aborted) services.requestInterrupt();
      return answer('aborted', true);
    }
    if (decision === 'decline' || decision === 'unattended') {
      complete('declined');
      return answer(decision === 'unattended' ? PATCH_UNATTENDED_OUTPUT : PATCH_DECLINED_OUTPUT);
    }
    if ('tillerFiles' in answered && answered.tillerFiles !== undefined) {
      // The user chose file by file: the item and the write cover what was accepted, as accepted.
      const selection = selectChanges(changes, answered.tillerFiles);
      if (selection.apply.length === 0) {
        complete('declined');
        return answer(allRejectedOutput(selection));
      }
      changes = selection.apply;
      notes = selectionNotes(selection);
    }
    if (decision === 'acceptForSession') {
      for (const path of targetPaths(changes)) services.approvals.patchPaths.add(resolvedTarget(path));
    }
  }
  turn.openItems.set(itemId, item('failed'));
  try {
    await writePlan(changes);
  } catch (error) {
    complete('failed');
    const message = error instanceof Error ? error.message : String(error);
    return answer(patchRunOutput(1, services.now() - started, `${message}\n`));
  }
  complete('completed');
  return answer(patchRunOutput(0, services.now() - started, successSummary(changes) + notes));
}
