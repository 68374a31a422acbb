/**
 * The user's choices on a patch waiting for approval, file by file: ↑/↓ pick a file, Tab rejects or
 * accepts it again, Ctrl+E opens its proposed content in $EDITOR (the edit is what gets written),
 * Enter applies the choices. What goes back to the server is Tiller's `tillerFiles`
 * (protocol/server-requests.ts). Pure: state in, state out.
 */
import type { FileUpdateChange, TillerFileDecision } from '../../../protocol/api.js';

export interface PatchChoiceFile {
  /** As the `fileChange` item names it (absolute): the server matches choices by it. */
  path: string;
  /** As the prompt shows it (relative to the session's directory). */
  shown: string;
  kind: 'add' | 'delete' | 'update';
  diff: string;
  rejected: boolean;
  /** The user's edit of the proposed content; null: not edited. */
  content: string | null;
}

export interface PatchChoices {
  files: PatchChoiceFile[];
  selected: number;
}

export function patchChoicesOf(changes: readonly FileUpdateChange[], shown: (path: string) => string): PatchChoices {
  return {
    files: changes.map((change) => ({
      path: change.path,
      shown: shown(change.path),
      kind: change.kind.type,
      diff: change.diff,
      rejected: false,
      content: null,
    })),
    selected: 0,
  };
}

export function moveChoice(state: PatchChoices, by: 1 | -1): PatchChoices {
  const count = state.files.length;
  return count === 0 ? state : { ...state, selected: (state.selected + by + count) % count };
}

function updateSelected(state: PatchChoices, update: (file: PatchChoiceFile) => PatchChoiceFile): PatchChoices {
  return { ...state, files: state.files.map((file, i) => (i === state.selected ? update(file) : file)) };
}

/** Rejects the selected file, or accepts it again. */
export function toggleChoice(state: PatchChoices): PatchChoices {
  return updateSelected(state, (file) => ({ ...file, rejected: !file.rejected }));
}

/** The user's edit of the selected file: accepted as edited. */
export function withEditedContent(state: PatchChoices, content: string): PatchChoices {
  return updateSelected(state, (file) => ({ ...file, rejected: false, content }));
}

/** Whether the selected file has content to edit (a deleted file has none). */
export function editable(state: PatchChoices): boolean {
  const file = state.files[state.selected];
  return file !== undefined && file.kind !== 'delete';
}

export function choicesAnswer(state: PatchChoices): TillerFileDecision[] {
  return state.files.map((file) => ({
    path: file.path,
    decision: file.rejected ? 'decline' : 'accept',
    ...(file.content === null || file.rejected ? {} : { content: file.content }),
  }));
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * The content the patch proposes for a file: an added file's text, or `current` with the update's
 * hunks applied (kept and added lines in, removed lines out). The user edits this.
 */
export function proposedContent(file: Pick<PatchChoiceFile, 'kind' | 'diff'>, current: string): string {
  if (file.kind === 'add') return file.diff;
  if (file.kind === 'delete') return '';
  const old = current.split('\n');
  if (old[old.length - 1] === '') old.pop();
  const out: string[] = [];
  let cursor = 0;
  const lines = file.diff.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    if (header) {
      // A hunk with no old lines names the line it follows; otherwise its first line.
      const start = header[2] === '0' ? Number(header[1]) : Number(header[1]) - 1;
      for (; cursor < start && cursor < old.length; cursor++) out.push(old[cursor]!);
      continue;
    }
    if (line.startsWith('+')) out.push(line.slice(1));
    else if (line.startsWith('-')) cursor++;
    else {
      out.push(line.slice(1));
      cursor++;
    }
  }
  for (; cursor < old.length; cursor++) out.push(old[cursor]!);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
