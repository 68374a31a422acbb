/**
 * The rows above the composer (docs/codex-parity.md#pending-steer-rows): pending steers, rejected
 * steers and queued follow-ups in the order they will be delivered, each with where it stands
 * (`sending…`, `waiting for the next tool call`, `editing`, why a steer was refused), the selected
 * one marked while the list has the keyboard.
 */
import type { ChatState, PendingInput } from '../../store-types.js';
import stringWidth from '../../string-width.js';
import { wrapText } from '../../wrap.js';

export const PENDING_STEERS_HEADER = '• Messages to be submitted after next tool call (press esc to interrupt and send immediately)';
export const REJECTED_STEERS_HEADER = '• Messages to be submitted at end of turn';
export const QUEUED_HEADER = '• Queued follow-up inputs';
/** Wrapped lines shown per message before `    …`. */
export const PREVIEW_LINE_LIMIT = 3;
/** The key that gives the list the keyboard, named under it. */
export const MANAGE_HINT = 'ctrl + q manage';
export const STEERS_MANAGE_HINT = 'ctrl + q edit or retract';

export type PreviewLineStyle = 'header' | 'steer' | 'queued' | 'hint' | 'blank' | 'selected';
export interface PreviewLine {
  text: string;
  style: PreviewLineStyle;
}

export interface PreviewOptions {
  /** `darwin` shows `⌥ + ↑`; other platforms `alt + ↑`. */
  platform?: NodeJS.Platform;
  /** At most this many rows (at least 2): the rest is summed up in a last `… N more lines` row. */
  maxLines?: number;
}

export type PendingLists = Pick<ChatState, 'pendingSteers' | 'rejectedSteers' | 'queued'>;
type ViewState = PendingLists & Partial<Pick<ChatState, 'pendingFocus' | 'pendingEdit'>>;

export function hasPendingInput(state: PendingLists): boolean {
  return state.pendingSteers.length + state.rejectedSteers.length + state.queued.length > 0;
}

export function pendingCount(state: PendingLists): number {
  return state.pendingSteers.length + state.rejectedSteers.length + state.queued.length;
}

/** What a row says of where its message stands, or null (a queued message just waits). */
export function pendingStateLabel(item: PendingInput, editing: boolean): string | null {
  if (editing) return 'editing: not sent until you press enter';
  if (item.reason !== undefined) return item.reason;
  if (item.steerState === 'sending') return 'sending…';
  if (item.steerState === 'waiting') return 'waiting for the next tool call';
  return null;
}

/**
 * The rows, with a blank line between sections. Nothing when all are empty or the width is below 4.
 * A cut keeps the selected message in view.
 */
export function pendingPreviewLines(state: ViewState, width: number, options: PreviewOptions = {}): PreviewLine[] {
  if (width < 4 || !hasPendingInput(state)) return [];
  // Each line remembers the message it shows (by kind), so a cut can say what is hidden.
  const out: PreviewLine[] = [];
  const owners: Array<{ kind: PendingKind; index: number } | null> = [];
  let selectedAt = -1;
  const push = (line: PreviewLine, owner: { kind: PendingKind; index: number } | null): void => {
    out.push(line);
    owners.push(owner);
  };
  const section = (header: string, items: PendingInput[], style: PreviewLineStyle, kind: PendingKind): void => {
    if (items.length === 0) return;
    if (out.length > 0) push({ text: '', style: 'blank' }, null);
    for (const text of wrapIndented(header, width, '', '  ')) push({ text, style: 'header' }, null);
    items.forEach((item, index) => {
      const selected = state.pendingFocus?.selectedId === item.id;
      if (selected) selectedAt = out.length;
      const label = pendingStateLabel(item, state.pendingEdit?.id === item.id);
      for (const text of itemLines(item.text, label, width, selected))
        push({ text, style: selected ? 'selected' : style }, { kind, index });
    });
  };
  section(PENDING_STEERS_HEADER, state.pendingSteers, 'steer', 'steer');
  section(REJECTED_STEERS_HEADER, state.rejectedSteers, 'steer', 'rejected');
  section(QUEUED_HEADER, state.queued, 'queued', 'queued');
  if (state.pendingFocus == null) {
    const keyLabel = (options.platform ?? process.platform) === 'darwin' ? '⌥ + ↑' : 'alt + ↑';
    const hint = state.queued.length > 0 ? `    ${keyLabel} edit last queued message · ${MANAGE_HINT}` : `    ${STEERS_MANAGE_HINT}`;
    push({ text: hint, style: 'hint' }, null);
  }
  const max = Math.max(2, options.maxLines ?? Infinity);
  if (out.length <= max) return out;
  // The selected message stays on screen: the rows above it go first.
  const skip = selectedAt < 0 ? 0 : Math.max(0, Math.min(selectedAt - 1, selectedAt + PREVIEW_LINE_LIMIT + 1 - (max - 1)));
  const kept = out.slice(skip, skip + max - 1);
  const head = skip > 0 ? [{ text: `    … ${skip} earlier lines`, style: 'hint' as const }, ...kept.slice(1)] : kept;
  return [...head, { text: `    … ${hiddenSummary(owners.slice(skip), max - 1, out.length - skip)}`, style: 'hint' }];
}

type PendingKind = 'steer' | 'rejected' | 'queued';
const PENDING_NOUNS: Record<PendingKind, [string, string]> = {
  steer: ['pending steer', 'pending steers'],
  rejected: ['rejected steer', 'rejected steers'],
  queued: ['queued message', 'queued messages'],
};

/** `2 more queued messages`, `1 more pending steer, 3 more queued messages`, or `4 more lines` of a message already begun. */
function hiddenSummary(owners: ReadonlyArray<{ kind: PendingKind; index: number } | null>, shown: number, total: number): string {
  const begun = new Set(owners.slice(0, shown).flatMap((o) => (o === null ? [] : [`${o.kind}:${o.index}`])));
  const hidden = new Map<PendingKind, Set<number>>();
  for (const owner of owners.slice(shown)) {
    if (owner === null || begun.has(`${owner.kind}:${owner.index}`)) continue;
    if (!hidden.has(owner.kind)) hidden.set(owner.kind, new Set());
    hidden.get(owner.kind)!.add(owner.index);
  }
  if (hidden.size === 0) return `${total - shown} more lines`;
  return [...hidden].map(([kind, items]) => `${items.size} more ${PENDING_NOUNS[kind][items.size === 1 ? 0 : 1]}`).join(', ');
}

function itemLines(text: string, label: string | null, width: number, selected: boolean): string[] {
  const wrapped = wrapIndented(text, width, selected ? '› ↳ ' : '  ↳ ', '    ');
  const shown = wrapped.length <= PREVIEW_LINE_LIMIT ? wrapped : [...wrapped.slice(0, PREVIEW_LINE_LIMIT), '    …'];
  if (label === null) return shown;
  const last = shown.at(-1)!;
  const suffix = ` · ${label}`;
  // The state goes after the text when it fits on its last row, else on a row of its own.
  return stringWidth(last + suffix) <= width
    ? [...shown.slice(0, -1), last + suffix]
    : [...shown, ...wrapIndented(label, width, '    ', '    ')];
}

/** Word-wrap by display width with a first-line and a continuation indent (both 4 cells or less). */
function wrapIndented(text: string, width: number, first: string, rest: string): string[] {
  const inner = Math.max(1, width - Math.max(first.length, rest.length));
  const out: string[] = [];
  for (const sourceLine of text.split('\n')) {
    const pieces = sourceLine === '' ? [''] : wrapText(sourceLine, inner).split('\n');
    for (const piece of pieces) out.push((out.length === 0 ? first : rest) + piece);
  }
  return out;
}
