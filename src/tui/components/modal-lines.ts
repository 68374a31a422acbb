/**
 * The rows of what takes the keys above the composer: the approval prompt (a command or an MCP
 * call), the /approvals mode picker and the /model picker, each in the rows the live area can give.
 */
import type { PatchChoices } from '../chat/approvals/patch-choices.js';
import type { ChalkInstance } from 'chalk';
import stringWidth from '../string-width.js';
import type { ReasoningEffort } from '../../protocol/api.js';
import { APPROVAL_PRESETS, presetIndexOf, type ApprovalMode } from '../chat/approvals/approval-modes.js';
import { EFFORT_CHOICES, filteredModels, isCurrent } from '../chat/commands/model-picker.js';
import { sanitize } from '../markdown.js';
import type { ApprovalModal, ModelPickerState } from '../store-types.js';
import { truncateToWidth } from '../text-width.js';
import { cutRows, defaultChalk, wrapWithPrefix } from './row-shapes.js';
import { palette } from '../theme.js';

export const APPROVAL_TITLE = 'Would you like to run the following command?';

export const APPROVAL_OPTIONS = [
  'y  Yes, proceed',
  "a  Yes, and don't ask again for this command in this session",
  'n  No, and tell Tiller what to do differently (esc)',
];

/** The same prompt for an MCP tool call (the modal's `mcp`): the call, without a directory. */
export function mcpApprovalTitle(server: string, tool: string): string {
  return `Would you like to let the model call ${server}.${tool}?`;
}

export const MCP_APPROVAL_OPTIONS = [
  'y  Yes, proceed',
  "a  Yes, and don't ask again for this tool in this session",
  'n  No, and tell Tiller what to do differently (esc)',
];

/** The same prompt for a patch (the modal's `patch`), as Codex asks it; its diff is the cell above. */
export const PATCH_APPROVAL_TITLE = 'Would you like to make the following edits?';

export const PATCH_APPROVAL_OPTIONS = [
  'y  Yes, proceed',
  "a  Yes, and don't ask again for these files in this session",
  'n  No, and tell Tiller what to do differently (esc)',
];

/** Under a patch's file list: the keys that choose file by file. */
export const PATCH_CHOICE_OPTIONS = [
  'y  Yes, apply every file',
  "a  Yes, and don't ask again for these files in this session",
  '↑/↓ pick a file · tab reject/accept it · ctrl+e edit it in $EDITOR · enter apply as marked',
  'n  No, and tell Tiller what to do differently (esc)',
];

/** The patch's files, one row each: the picked one `▸`, accepted `✓`, rejected `✗`, edited so. */
function patchChoiceRows(choices: PatchChoices, width: number, c: ChalkInstance): string[] {
  return choices.files.flatMap((file, i) => {
    const mark = file.rejected ? palette(c).danger('✗ reject') : palette(c).success(file.content === null ? '✓ accept' : '✓ edited');
    const head = `${i === choices.selected ? palette(c).accent('▸') : ' '} ${mark}  `;
    const rows = wrapWithPrefix(sanitize(file.shown), width, head, ' '.repeat(12));
    return i === choices.selected ? rows.map((row) => c.bold(row)) : rows;
  });
}

/**
 * The approval prompt in at most `maxRows` rows (the live area must stay shorter than the terminal):
 * a command too tall keeps its first rows and its last, the rest counted.
 */
export function approvalLines(modal: ApprovalModal, width: number, c: ChalkInstance = defaultChalk, maxRows = Infinity): string[] {
  const mcp = modal.mcp;
  const title = modal.patch ? PATCH_APPROVAL_TITLE : mcp === undefined ? APPROVAL_TITLE : sanitize(mcpApprovalTitle(mcp.server, mcp.tool));
  const head: string[] = [...wrapWithPrefix(title, width, '', '').map((l) => c.bold(l))];
  if (modal.reason !== null && modal.reason !== '') head.push(...wrapWithPrefix(sanitize(modal.reason), width, 'Reason: ', '        '));
  head.push('');
  const tail = mcp === undefined ? wrapWithPrefix(sanitize(modal.cwd), width, c.dim('  in '), '     ').map((l) => c.dim(l)) : [];
  tail.push('');
  const options =
    modal.patchChoices !== undefined
      ? PATCH_CHOICE_OPTIONS
      : modal.patch
        ? PATCH_APPROVAL_OPTIONS
        : mcp === undefined
          ? APPROVAL_OPTIONS
          : MCP_APPROVAL_OPTIONS;
  for (const option of options) tail.push(...wrapWithPrefix(option, width, '  ', '     '));
  if (modal.patchChoices !== undefined) {
    const files = patchChoiceRows(modal.patchChoices, width, c);
    return [...head, ...cutRows(files, maxRows - head.length - tail.length, 1, c), ...tail];
  }
  const command = wrapWithPrefix(
    sanitize(modal.command),
    width,
    mcp === undefined && !modal.patch ? `  ${c.bold('$')} ` : '  ',
    mcp === undefined && !modal.patch ? '    ' : '  ',
  );
  return [...head, ...cutRows(command, maxRows - head.length - tail.length, 1, c), ...tail];
}

export const MODE_PICKER_TITLE = 'Approval mode: when commands ask, and where they may write';

/** The footer while the /approvals picker owns the keys. */
export const MODE_PICKER_HINT = `↑/↓ to choose · enter or 1–${APPROVAL_PRESETS.length} to pick · esc to close`;

/** The /approvals picker: each preset with its description, the highlighted one `▸`, the current one marked. */
export function modePickerLines(selected: number, current: ApprovalMode, width: number, c: ChalkInstance = defaultChalk): string[] {
  const currentIndex = presetIndexOf(current);
  const labels = APPROVAL_PRESETS.map((p, i) => `${i + 1}. ${p.label}${i === currentIndex ? ' (current)' : ''}`);
  const labelWidth = Math.max(...labels.map((l) => stringWidth(l)));
  const rows = [...wrapWithPrefix(MODE_PICKER_TITLE, width, '', '').map((l) => c.bold(l)), ''];
  APPROVAL_PRESETS.forEach((preset, i) => {
    const isSelected = i === selected;
    const head = `${isSelected ? '▸ ' : '  '}${labels[i]!.padEnd(labelWidth)}  `;
    const wrapped = wrapWithPrefix(preset.description, width, head, ' '.repeat(stringWidth(head)));
    rows.push(
      ...wrapped.map((row) => (isSelected ? palette(c).accent(row) : `${row.slice(0, head.length)}${c.dim(row.slice(head.length))}`)),
    );
  });
  return rows;
}

export const MODEL_PICKER_TITLE = 'Model for the next turn';

/** The footer while the /model picker owns the keys, per stage. */
export const MODEL_PICKER_HINT = '↑/↓ · type to filter · enter to pick · esc to close';

export const EFFORT_PICKER_HINT = `↑/↓ to choose · enter or 1–${EFFORT_CHOICES.length} to pick · esc to go back`;

/**
 * The /model picker in at most `maxRows` rows: the models (filtered, scrolled to the highlighted
 * one, `▸`; the current one marked) or, for the picked model, the reasoning efforts; model/list's
 * note last.
 */
export function modelPickerLines(
  picker: ModelPickerState,
  current: { model: string; effort: ReasoningEffort | null },
  width: number,
  c: ChalkInstance = defaultChalk,
  maxRows = Infinity,
): string[] {
  const effortStage = picker.stage === 'effort';
  const title = effortStage ? `Reasoning effort for ${picker.model ?? ''}` : MODEL_PICKER_TITLE;
  const head = wrapWithPrefix(sanitize(title), width, '', '').map((l) => c.bold(l));
  if (!effortStage && picker.filter !== '') head.push(...wrapWithPrefix(sanitize(picker.filter), width, c.dim('  filter: '), '          '));
  head.push('');
  const tail =
    picker.note === null || effortStage
      ? []
      : ['', ...wrapWithPrefix(sanitize(picker.note), width, '⚠ ', '  ').map((l) => palette(c).warning(l))];
  let items: Array<{ label: string; description: string }>;
  if (effortStage) {
    items = EFFORT_CHOICES.map((choice, i) => ({
      label: `${i + 1}. ${choice.label}${choice.effort === current.effort ? ' (current)' : ''}`,
      description: choice.description,
    }));
  } else if (picker.models === null) {
    return [...head, c.dim("  Loading the provider's models…")];
  } else {
    const now = { model: current.model, provider: picker.currentProvider ?? null };
    items = filteredModels(picker).map((m) => ({
      label: sanitize(m.model) + (isCurrent(m, now) ? ' (current)' : ''),
      description: sanitize(m.providerName ?? ''),
    }));
    if (items.length === 0) return [...head, c.dim('  no model matches the filter'), ...tail];
  }
  const room = Math.max(1, maxRows - head.length - tail.length - 1);
  const start = Math.min(Math.max(0, picker.selected - room + 1), Math.max(0, items.length - room));
  const shown = items.slice(start, start + room);
  const labelWidth = Math.max(...shown.map((item) => stringWidth(item.label)));
  const rows = shown.map((item, i) => {
    const isSelected = start + i === picker.selected;
    const lead = `${isSelected ? '▸ ' : '  '}${item.label.padEnd(labelWidth)}`;
    const text = truncateToWidth(item.description === '' ? lead.trimEnd() : `${lead}  ${item.description}`, width);
    return isSelected ? palette(c).accent(text) : `${text.slice(0, lead.length)}${c.dim(text.slice(lead.length))}`;
  });
  if (items.length > shown.length) rows.push(c.dim(`  ${start + 1}–${start + shown.length} of ${items.length}`));
  return [...head, ...rows, ...tail];
}
