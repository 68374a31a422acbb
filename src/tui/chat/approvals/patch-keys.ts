/**
 * The keys of a patch's approval prompt beyond y/a/n: ↑/↓ pick a file, Tab rejects it (or accepts
 * it again), Ctrl+E opens its proposed content in $EDITOR, Enter applies the choices. None is a
 * letter, so typing into the draft never makes one (prompt-keys.ts).
 */
import { readFileSync } from 'node:fs';
import type { KeyEvent } from '../../keys/types.js';
import type { NewCell } from '../../store.js';
import { NO_EDITOR_MESSAGE, type ExternalEditResult } from '../../terminal/external-editor.js';
import type { ApprovalQueue } from './approvals.js';
import { editable, moveChoice, proposedContent, toggleChoice, withEditedContent } from './patch-choices.js';

export interface PatchKeysHost {
  approvals: ApprovalQueue;
  editExternally?: (text: string) => Promise<ExternalEditResult>;
  cell(cell: NewCell): void;
}

function current(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Whether the key was one of the patch prompt's own. */
export function patchPromptKey(event: KeyEvent, host: PatchKeysHost): boolean {
  const choices = host.approvals.patchChoices();
  if (choices === null || event.alt || event.meta) return false;
  const plain = !event.ctrl && !event.shift;
  if (event.name === 'up' && plain) host.approvals.setPatchChoices(moveChoice(choices, -1));
  else if (event.name === 'down' && plain) host.approvals.setPatchChoices(moveChoice(choices, 1));
  else if (event.name === 'tab' && plain) host.approvals.setPatchChoices(toggleChoice(choices));
  else if (event.name === 'enter' && plain) host.approvals.answerFiles();
  else if (event.ctrl && event.name === 'char' && event.char?.toLowerCase() === 'e') editSelected(host);
  else return false;
  return true;
}

function editSelected(host: PatchKeysHost): void {
  const choices = host.approvals.patchChoices();
  if (choices === null || !editable(choices)) return;
  if (host.editExternally === undefined) return host.cell({ kind: 'error', text: NO_EDITOR_MESSAGE });
  const file = choices.files[choices.selected]!;
  const text = file.content ?? proposedContent(file, file.kind === 'add' ? '' : current(file.path));
  host
    .editExternally(text)
    .then((result) => {
      if ('error' in result) return host.cell({ kind: 'error', text: result.error });
      // The prompt may have gone (its turn ended) or moved on while the editor was open.
      const now = host.approvals.patchChoices();
      if (now === null || now.files[choices.selected]?.path !== file.path) return;
      host.approvals.setPatchChoices(withEditedContent({ ...now, selected: choices.selected }, result.text));
    })
    .catch((error: unknown) =>
      host.cell({ kind: 'error', text: `External editor: ${error instanceof Error ? error.message : String(error)}` }),
    );
}
