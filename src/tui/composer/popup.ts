/**
 * Popups above the composer (docs/codex-parity.md#popups): which one is open after an edit (`/` commands, `@` files,
 * `$` skills), its rows, and the insertions a selection makes. Key handling is in the reducer.
 */
import { single } from 'fuzzysort';
import { byteOffsetToIndex } from '../../protocol/utf8.js';
import { currentToken, type TokenAtCursor } from './file-search.js';
import { isBrowsing, isSearching } from './history.js';
import { attach } from './paste.js';
import { commandPopupRows, isCommandPrefix, isDraftCommandPrefix, substringMatch } from './slash-commands.js';
import { commitTextArea, type ComposerState } from './state.js';
import type { Popup } from './state-types.js';
import { cursorByte, insertElement, insertText, replaceRange, setCursor } from './textarea.js';
import type { ComposerEffect, SkillInfo } from './types.js';

export interface PopupRow {
  label: string;
  description?: string;
  /** Indices into `label` to highlight. */
  highlight?: number[];
  /** Shown dimmed: cannot be chosen now. */
  disabled?: boolean;
}

export interface PopupView {
  kind: Popup['kind'];
  rows: PopupRow[];
  /** Index of the selected row, or null when there are none. */
  selected: number | null;
}

/**
 * The `/name` the popup is for: the first word when the draft starts with `/` and the caret is in it,
 * unless it names no command and a draft command fits what is typed before the caret; else a `/`
 * that starts a word inside the draft followed by at least one letter, up to the caret, naming the
 * start of a draft command.
 */
export function commandToken(state: ComposerState): { name: string; at: number | null } | null {
  if (state.bashMode) return null;
  const leading = leadingCommandName(state);
  if (leading !== null && isCommandPrefix(leading)) return { name: leading, at: null };
  return draftCommandToken(state) ?? (leading === null ? null : { name: leading, at: null });
}

/** The `/name` token at the start of the first line when the caret is inside it. */
function leadingCommandName(state: ComposerState): string | null {
  const text = state.ta.text;
  if (!text.startsWith('/')) return null;
  const m = /^\/[^\s]*/u.exec(text);
  const end = m === null ? 1 : m[0].length;
  if (state.ta.cursor > end) return null;
  const name = text.slice(1, end);
  return name.includes('/') ? null : name;
}

/** A command name is short: the word before the caret is looked at no further back than this. */
const MAX_DRAFT_TOKEN_CHARS = 32;

function draftCommandToken(state: ComposerState): { name: string; at: number } | null {
  // Vim's Normal mode keys are commands, not text.
  if (state.vimEnabled && state.vim.mode !== 'insert') return null;
  const { text, cursor, elements } = state.ta;
  let at = cursor;
  while (at > 0 && cursor - at < MAX_DRAFT_TOKEN_CHARS && !SPACE.test(text[at - 1]!)) at--;
  if (text[at] !== '/' || (at > 0 && !SPACE.test(text[at - 1]!))) return null;
  const name = text.slice(at + 1, cursor);
  // A bare `/` inside a message is text ("and/or", "see /"): a letter after it asks for a command.
  if (name === '' || name.includes('/') || !isDraftCommandPrefix(name)) return null;
  // A placeholder is not typed text.
  if (elements.some((e) => e.start < cursor && at < e.end)) return null;
  return { name, at };
}

function tokenKey(sigil: string, tok: TokenAtCursor): string {
  return `${sigil}${tok.start}:${tok.query}`;
}

export interface SkillMatch {
  skill: SkillInfo;
  /** Indices into the skill's name that matched. */
  indices: number[];
}

/**
 * Skills for a `$query`, as the `/` popup matches commands: an exact name, then prefixes, then names
 * containing the query (case-insensitive), each in the given (name) order.
 */
export function matchSkills(skills: readonly SkillInfo[], query: string): SkillMatch[] {
  const q = query.toLowerCase();
  const matched = skills.flatMap((skill) => {
    const indices = substringMatch(skill.name, q);
    return indices === null ? [] : [{ skill, indices }];
  });
  if (q === '') return matched;
  const rank = (m: SkillMatch): number => (m.skill.name.toLowerCase() === q ? 0 : m.indices[0] === 0 ? 1 : 2);
  return matched.sort((a, b) => rank(a) - rank(b));
}

export function skillMatches(skills: readonly SkillInfo[], query: string): SkillInfo[] {
  return matchSkills(skills, query).map((m) => m.skill);
}

/** The characters of `label` a fuzzy file query matched (fuzzysort's indexes), sorted; none for an empty query. */
export function fileHighlight(label: string, query: string): number[] {
  const q = query.trim();
  if (q === '') return [];
  const r = single(q, label);
  return r === null ? [] : [...r.indexes].sort((a, b) => a - b);
}

/** Opens, updates or closes the popup to match the text and caret; an `@` query change asks for a search. */
export function syncPopups(state: ComposerState): { state: ComposerState; effects: ComposerEffect[] } {
  const none = (s: ComposerState) => ({ state: s.popup === null ? s : { ...s, popup: null }, effects: [] });
  if (isSearching(state.history) || isBrowsing(state.history)) return none(state);
  const text = state.ta.text;
  const prev = state.popup;
  // Runs on every keystroke, over drafts of any size: only a word under the cursor that begins with a
  // sigil is measured in bytes (that costs the whole text).
  const sigils = sigilsNearCursor(text, state.ta.cursor);
  const cb = sigils.size > 0 ? cursorByte(state.ta) : 0;

  const fileTok = sigils.has('@') ? currentToken(text, cb, '@') : null;
  if (fileTok !== null) {
    const key = tokenKey('@', fileTok);
    if (state.dismissedToken === key) return none(state);
    if (prev?.kind === 'file' && prev.token.query === fileTok.query) {
      return { state: { ...state, popup: { ...prev, token: fileTok } }, effects: [] };
    }
    const results = prev?.kind === 'file' ? prev.results : [];
    // Opening the popup asks for a fresh look at the disk (files added or removed since the last walk).
    const opened = prev?.kind !== 'file' || prev.token.start !== fileTok.start;
    return {
      state: { ...state, popup: { kind: 'file', token: fileTok, results, selected: 0 } },
      effects: [opened ? { type: 'fileSearch', query: fileTok.query, refresh: true } : { type: 'fileSearch', query: fileTok.query }],
    };
  }

  const skillTok = sigils.has('$') ? currentToken(text, cb, '$') : null;
  // A `$` token: the host re-reads the skills directory if it changed (cheap; answered by `setSkills`),
  // when the token starts and while no skill is known.
  const skillRefresh: ComposerEffect[] =
    skillTok !== null && (state.skills.length === 0 || prev?.kind !== 'skill' || prev.token.start !== skillTok.start)
      ? [{ type: 'refreshSkills' }]
      : [];
  if (skillTok !== null && state.skills.length === 0) return { ...none(state), effects: skillRefresh };
  if (skillTok !== null) {
    const key = tokenKey('$', skillTok);
    if (state.dismissedToken === key) return none(state);
    const selected = prev?.kind === 'skill' && prev.token.query === skillTok.query ? prev.selected : 0;
    return { state: { ...state, popup: { kind: 'skill', token: skillTok, selected } }, effects: skillRefresh };
  }

  const cmd = commandToken(state);
  // The popup stays while the token is typed, saying `no matches` when nothing matches (`/stt`).
  if (cmd !== null) {
    if (state.dismissedToken === `/${cmd.name}`) return none(state);
    const selected = prev?.kind === 'command' && prev.filter === cmd.name && prev.at === cmd.at ? prev.selected : 0;
    return { state: { ...state, popup: { kind: 'command', filter: cmd.name, selected, at: cmd.at } }, effects: [] };
  }
  const cleared = state.dismissedToken === null ? state : { ...state, dismissedToken: null };
  return none(cleared);
}

/** A popup token longer than this is no query anyone types; past it the word is not looked at. */
const MAX_TOKEN_CHARS = 512;
const SPACE = /\s/;

/**
 * The sigils (`@`, `$`) that begin the word the cursor is in or touches, or the next word after the
 * spaces at the cursor (currentToken's candidates), looking at most MAX_TOKEN_CHARS either way.
 */
function sigilsNearCursor(text: string, cursor: number): Set<string> {
  const found = new Set<string>();
  let start = cursor;
  while (start > 0 && cursor - start < MAX_TOKEN_CHARS && !SPACE.test(text[start - 1]!)) start--;
  if (start === 0 || SPACE.test(text[start - 1]!)) {
    const first = text[start];
    if (first === '@' || first === '$') found.add(first);
  }
  let next = cursor;
  while (next < text.length && next - cursor < MAX_TOKEN_CHARS && SPACE.test(text[next]!)) next++;
  const after = text[next];
  if (after === '@' || after === '$') found.add(after);
  return found;
}

/** The key that keeps a closed popup closed until its token changes. */
export function dismissKey(popup: Popup): string {
  if (popup.kind === 'command') return `/${popup.filter}`;
  return tokenKey(popup.kind === 'file' ? '@' : '$', popup.token);
}

export function popupView(state: ComposerState): PopupView | null {
  const p = state.popup;
  if (p === null) return null;
  let rows: PopupRow[];
  if (p.kind === 'command') {
    rows = commandPopupRows(p.filter, { taskRunning: state.taskRunning, inDraft: p.at !== null });
  } else if (p.kind === 'file') {
    rows = p.results.map((label) => ({ label, highlight: fileHighlight(label, p.token.query) }));
  } else {
    rows = matchSkills(state.skills, p.token.query).map(({ skill: s, indices }) => ({
      label: `$${s.name}`,
      highlight: indices.map((i) => i + 1),
      ...(s.description === undefined ? {} : { description: s.description }),
    }));
  }
  return { kind: p.kind, rows, selected: rows.length === 0 ? null : Math.min(p.selected, rows.length - 1) };
}

/** Moves the selection by `delta`, wrapping around. */
export function moveSelection(state: ComposerState, delta: number): ComposerState {
  const view = popupView(state);
  const p = state.popup;
  if (p === null || view === null || view.rows.length === 0) return state;
  const n = view.rows.length;
  const selected = ((view.selected ?? 0) + delta + n) % n;
  return { ...state, popup: { ...p, selected } };
}

function tokenRange(state: ComposerState, token: TokenAtCursor): { start: number; end: number } {
  const text = state.ta.text;
  return { start: byteOffsetToIndex(text, token.start) ?? 0, end: byteOffsetToIndex(text, token.end) ?? text.length };
}

const IMAGE_EXT = /\.(png|jpe?g|gif|webp)$/i;

/**
 * Replaces the `@token` by the chosen path and a space (quoted when it has whitespace and no `"`);
 * an image path that the probe can read is attached as `[Image #N]` instead.
 */
export function insertFileSelection(state: ComposerState, token: TokenAtCursor, path: string): ComposerState {
  const { start, end } = tokenRange(state, token);
  if (IMAGE_EXT.test(path)) {
    const media = state.probeMedia(path);
    if (media !== null && media.kind === 'image') {
      const removed = commitTextArea(state, replaceRange(state.ta, start, end, ''));
      return attach(removed, media);
    }
  }
  const shown = /\s/u.test(path) && !path.includes('"') ? `"${path}"` : path;
  return commitTextArea(state, replaceRange(state.ta, start, end, `${shown} `));
}

/** Replaces the `$token` by an atomic `$name` mention bound to the skill, and a space. */
export function insertSkillSelection(state: ComposerState, token: TokenAtCursor, skill: SkillInfo): ComposerState {
  const { start, end } = tokenRange(state, token);
  const removed = commitTextArea(state, replaceRange(state.ta, start, end, ''));
  const { ta, id } = insertElement(setCursor(removed.ta, start), `$${skill.name}`, 'mention');
  return {
    ...removed,
    ta: insertText(ta, ' '),
    mentions: [...removed.mentions, { name: skill.name, path: skill.path, elementId: id }],
  };
}
