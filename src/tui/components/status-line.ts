/**
 * The footer's status line: which items it shows (/statusline, `[tui] status_line` in config.toml)
 * and their text. Ids are Codex's (`model-name`, `model-with-reasoning`, `current-dir`, `git-branch`,
 * `context-remaining`, `used-tokens`); `reasoning-effort` and `sandbox` are Tiller's own. No choice
 * in config: today's footer, the sandbox · the context once under half · the model with its effort.
 */
import { homedir } from 'node:os';
import type { TokenUsageBreakdown } from '../../protocol/api.js';
import { contextLeftPercent, contextWindowFor, FOOTER_CONTEXT_BELOW_PERCENT } from '../chat/turn/context-window.js';

export const STATUS_LINE_ITEMS = [
  { id: 'model-name', description: 'the model' },
  { id: 'model-with-reasoning', description: 'the model with its reasoning effort' },
  { id: 'reasoning-effort', description: 'the reasoning effort' },
  { id: 'context-remaining', description: 'how much of the context window is left' },
  { id: 'used-tokens', description: 'tokens used in the session' },
  { id: 'current-dir', description: 'the working directory' },
  { id: 'git-branch', description: 'the Git branch (omitted outside a repository)' },
  { id: 'sandbox', description: 'where commands may write (the approval mode)' },
] as const;

/** One item of the footer's right side; `danger` draws it in the theme's danger colour. */
export interface FooterItem {
  text: string;
  danger?: boolean;
}

export type StatusLineItemId = (typeof STATUS_LINE_ITEMS)[number]['id'];

/** The footer without a choice in config (as before /statusline existed). */
export const DEFAULT_STATUS_LINE: readonly StatusLineItemId[] = ['sandbox', 'context-remaining', 'model-with-reasoning'];

const IDS: ReadonlySet<string> = new Set(STATUS_LINE_ITEMS.map((item) => item.id));

export function isStatusLineItem(id: string): id is StatusLineItemId {
  return IDS.has(id);
}

/** Config's ids as items, duplicates dropped; the ids Tiller does not know, for a warning. */
export function parseStatusLine(ids: readonly string[]): { items: StatusLineItemId[]; unknown: string[] } {
  const items: StatusLineItemId[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    if (!isStatusLineItem(id)) unknown.push(id);
    else if (!items.includes(id)) items.push(id);
  }
  return { items, unknown };
}

export function unknownItemsWarning(unknown: readonly string[]): string {
  const known = STATUS_LINE_ITEMS.map((item) => item.id).join(', ');
  return `config.toml: tui.status_line: unknown item${unknown.length === 1 ? '' : 's'} ${unknown.map((id) => `"${id}"`).join(', ')} (ignored; known: ${known})`;
}

export interface StatusLineData {
  model: string;
  effort: string | null;
  /** Percent of the context window left after the last request; null when not known. */
  contextLeft: number | null;
  /** Tokens of the whole session; null before the first request. */
  usedTokens: number | null;
  cwd: string;
  branch: string | null;
  sandbox: { text: string; danger: boolean };
}

/**
 * The footer's right side for `items` (null: the default). An item without a value (no branch
 * outside Git, no tokens yet) is left out, so the line never shows an empty slot.
 */
export function statusLineItems(items: readonly StatusLineItemId[] | null, data: StatusLineData): FooterItem[] {
  const chosen = items ?? DEFAULT_STATUS_LINE;
  return chosen.flatMap((id): FooterItem[] => {
    const text = itemText(id, data, items === null);
    if (text === null) return [];
    return id === 'sandbox' ? [{ text, danger: data.sandbox.danger }] : [{ text }];
  });
}

function itemText(id: StatusLineItemId, data: StatusLineData, byDefault: boolean): string | null {
  switch (id) {
    case 'model-name':
      return data.model;
    case 'model-with-reasoning':
      // As Codex's: `gpt-5.1-codex high` when an effort is set.
      return data.effort === null ? data.model : `${data.model} ${data.effort}`;
    case 'reasoning-effort':
      return data.effort === null ? null : `effort ${data.effort}`;
    case 'context-remaining':
      if (data.contextLeft === null || (byDefault && data.contextLeft >= FOOTER_CONTEXT_BELOW_PERCENT)) return null;
      return `${data.contextLeft}% context left`;
    case 'used-tokens':
      return data.usedTokens === null || data.usedTokens === 0 ? null : `${compactCount(data.usedTokens)} tokens used`;
    case 'current-dir':
      return tildePath(data.cwd);
    case 'git-branch':
      return data.branch;
    case 'sandbox':
      return data.sandbox.text;
  }
}

/** Percent of `model`'s window left after the last request (100 before any); null for a window not known. */
export function contextLeftOf(model: string, last: TokenUsageBreakdown | undefined): number | null {
  const window = contextWindowFor(model);
  if (window === null) return null;
  return last === undefined ? 100 : contextLeftPercent(last, window);
}

/** `1234` → `1.2K`, `2500000` → `2.5M`. */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  const [value, unit] = n < 1_000_000 ? [n / 1000, 'K'] : [n / 1_000_000, 'M'];
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))}${unit}`;
}

function tildePath(path: string, home = homedir()): string {
  return home !== '' && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}
