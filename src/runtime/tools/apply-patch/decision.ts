/**
 * A patch the user answered file by file (Tiller's `tillerFiles`, see protocol/server-requests.ts):
 * which planned changes are written, which are left out, and which are written as the user edited
 * them, with the words the model reads about it. Pure: planned changes in, planned changes out.
 */
import type { TillerFileDecision } from '../../../protocol/api.js';
import type { PlannedChange } from './apply.js';
import { unifiedDiff } from './diff.js';

export interface PatchSelection {
  /** Written, edited ones included (with the user's content and its diff). */
  apply: PlannedChange[];
  rejected: PlannedChange[];
  /** The applied changes whose content the user edited. */
  edited: PlannedChange[];
}

function lines(content: string | null): string[] {
  if (content === null || content === '') return [];
  const split = content.split('\n');
  if (split[split.length - 1] === '') split.pop();
  return split;
}

/** The change with the user's content: its diff redone from the old content, the whole file one region. */
function withContent(change: PlannedChange, content: string): PlannedChange {
  if (change.kind === 'add') return { ...change, newContent: content, diff: content };
  const oldLines = lines(change.oldContent);
  const newLines = lines(content);
  const { diff } = unifiedDiff(oldLines, newLines, [{ start: 0, oldLength: oldLines.length, lines: newLines }]);
  return { ...change, newContent: content, diff };
}

/** A choice names a change by its path or the path it moves to. */
function choiceFor(change: PlannedChange, choices: readonly TillerFileDecision[]): TillerFileDecision | undefined {
  return choices.find((choice) => choice.path === change.path || (change.movePath !== null && choice.path === change.movePath));
}

export function selectChanges(changes: readonly PlannedChange[], choices: readonly TillerFileDecision[]): PatchSelection {
  const selection: PatchSelection = { apply: [], rejected: [], edited: [] };
  for (const change of changes) {
    const choice = choiceFor(change, choices);
    if (choice?.decision === 'decline') selection.rejected.push(change);
    else if (choice?.content !== undefined && change.kind !== 'delete' && choice.content !== change.newContent) {
      const edited = withContent(change, choice.content);
      selection.apply.push(edited);
      selection.edited.push(edited);
    } else selection.apply.push(change);
  }
  return selection;
}

const named = (change: PlannedChange): string => change.patchMovePath ?? change.patchPath;

/** What the model is told besides the applied files: the ones the user rejected and the ones the user changed. */
export function selectionNotes(selection: PatchSelection): string {
  let out = '';
  if (selection.rejected.length > 0) {
    out += `The user rejected the changes to these files; they were left as they were:\n${selection.rejected.map((c) => `R ${named(c)}\n`).join('')}`;
  }
  if (selection.edited.length > 0) {
    out += `The user edited the proposed content of these files before it was applied; read them again before changing them further:\n${selection.edited.map((c) => `E ${named(c)}\n`).join('')}`;
  }
  return out;
}

/** Every file rejected: nothing is written, and the model is told which. */
export const allRejectedOutput = (selection: PatchSelection): string =>
  `The user rejected every file of this patch; no file was changed. Do not retry it unless the user asks.\n${selectionNotes(selection)}`;
