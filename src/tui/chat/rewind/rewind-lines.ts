/**
 * The rows of the rewind menu above the composer: the title with the turn's prompt, the three
 * choices (`▸` on the highlighted one, a choice that cannot be had dimmed with why), or the files
 * changed outside Tiller and the overwrite question. Paths are shown relative to the chat's
 * directory when under it; everything is wrapped, nothing cut, control characters made harmless.
 */
import type { ChalkInstance } from 'chalk';
import { relative } from 'node:path';
import { sanitize } from '../../markdown.js';
import { cutRows, defaultChalk, wrapWithPrefix } from '../../components/row-shapes.js';
import type { RewindMenuState } from '../../store-types.js';
import { OVERWRITE_CHOICES, REWIND_SCOPES, scopeLabel, scopeUnavailable } from './rewind-menu.js';

/** The menu's title; a redo after a restart knows no prompt (`subject` empty), only the files. */
export function rewindTitle(state: RewindMenuState): string {
  if (state.direction === 'undo') return `Rewind to before “${state.subject}”`;
  return state.subject === '' ? 'Redo what the last undo took back' : `Redo what the last undo took back (“${state.subject}”)`;
}

export const OVERWRITE_TITLE = 'These files changed outside Tiller since it last wrote them, and the rewind would overwrite them:';

/** A path as the menu shows it: relative to `cwd` when under it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

export function rewindMenuLines(
  state: RewindMenuState,
  width: number,
  cwd: string,
  c: ChalkInstance = defaultChalk,
  maxRows = Infinity,
): string[] {
  const rows = wrapWithPrefix(sanitize(rewindTitle(state)), width, '', '').map((l) => c.bold(l));
  rows.push('');
  if (state.stage === 'overwrite') {
    rows.push(...wrapWithPrefix(OVERWRITE_TITLE, width, '', ''));
    const files = state.paths.flatMap((p) => wrapWithPrefix(sanitize(shownPath(p, cwd)), width, '  ', '  ').map((l) => c.yellow(l)));
    rows.push(...cutRows(files, Math.max(2, maxRows - rows.length - 3), 1, c), '');
    OVERWRITE_CHOICES.forEach((label, i) => rows.push(...choiceRows(`${i + 1}. ${label}`, i === state.selected, null, width, c)));
    return rows;
  }
  REWIND_SCOPES.forEach((scope, i) => {
    rows.push(
      ...choiceRows(`${i + 1}. ${scopeLabel(scope, state.direction)}`, i === state.selected, scopeUnavailable(state, scope), width, c),
    );
  });
  return rows;
}

function choiceRows(label: string, selected: boolean, why: string | null, width: number, c: ChalkInstance): string[] {
  const head = selected ? '▸ ' : '  ';
  const text = why === null ? label : `${label} (${why})`;
  // The prefixes share a width: wrapWithPrefix measures the first for every row.
  const wrapped = wrapWithPrefix(sanitize(text), width, head, '  ');
  return wrapped.map((row) => (why !== null ? c.dim(row) : selected ? c.cyan(row) : row));
}
