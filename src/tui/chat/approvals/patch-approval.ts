/**
 * A patch's approval request (`item/fileChange/requestApproval`) as the approval prompt takes it:
 * the prompt lists the files to accept, reject or edit one by one; the diff is the patch cell shown above it.
 */
import type { FileUpdateChange, ServerRequest, ServerRequestMap } from '../../../protocol/api.js';
import type { NewCell } from '../../store.js';
import { shownPath } from '../turn/patch-cell.js';
import type { ApprovalParams } from './approvals.js';
import { patchChoicesOf } from './patch-choices.js';

export type FileChangeApprovalRequest = ServerRequestMap['item/fileChange/requestApproval']['params'];

/** The prompt's params; `show` puts the patch's cell (its diff) in the transcript first. */
export function patchApprovalParams(
  params: FileChangeApprovalRequest,
  live: Live,
  show: (cell: NewCell) => void,
  cwd: string,
): ApprovalParams {
  const cell = live.pendingPatchCell(params.itemId);
  if (cell !== null) show(cell);
  const files = cell?.kind === 'patch' ? cell.files.map((file) => file.path).join(', ') : 'files';
  const changes = live.pendingPatchChanges(params.itemId);
  return {
    threadId: params.threadId,
    turnId: params.turnId,
    itemId: params.itemId,
    startedAtMs: params.startedAtMs,
    command: `apply_patch ${files}`,
    commandActions: [],
    cwd,
    reason: params.reason,
    tillerPatch: true,
    ...(changes === null ? {} : { tillerPatchChoices: patchChoicesOf(changes, (path) => shownPath(path, cwd)) }),
  };
}

type Live = { pendingPatchCell(itemId: string): NewCell | null; pendingPatchChanges(itemId: string): FileUpdateChange[] | null };

/** Any approval request as the prompt takes it: a command's as it came, a patch's through patchApprovalParams. */
export function approvalParamsOf(
  req: Exclude<ServerRequest, { method: 'item/tool/requestUserInput' }>,
  live: Live,
  show: (cell: NewCell) => void,
  cwd: string,
): ApprovalParams {
  return req.method === 'item/fileChange/requestApproval' ? patchApprovalParams(req.params, live, show, cwd) : req.params;
}
