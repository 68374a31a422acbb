/**
 * A patch applied whole or not at all: every file's new content is computed first (plan), and the
 * files are written only once every hunk has matched (write). A write that still fails midway (a
 * full disk) puts back what was already written.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { unifiedDiff, type Replacement } from './diff.js';
import type { Hunk, UpdateChunk } from './parser.js';
import { seekSequence } from './seek.js';

export interface PlannedChange {
  kind: 'add' | 'delete' | 'update';
  /** Absolute. */
  path: string;
  /** As the patch names it: the summary the model reads uses it, as Codex's does. */
  patchPath: string;
  movePath: string | null;
  patchMovePath: string | null;
  /** null: the file does not exist before (add of a new file). */
  oldContent: string | null;
  /** null: deleted. */
  newContent: string | null;
  /** Codex's `diff` of the change: the added or deleted file's text, or the update's unified diff. */
  diff: string;
  added: number;
  removed: number;
}

/** Why a patch cannot be applied; `message` is what follows `apply_patch verification failed: `. */
export class PatchApplyError extends Error {}

const ioReason = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'No such file or directory (os error 2)';
  if (code === 'EISDIR') return 'Is a directory (os error 21)';
  if (code === 'EACCES') return 'Permission denied (os error 13)';
  return error instanceof Error ? error.message : String(error);
};

function lineEnding(content: string): '\r\n' | '\n' {
  let newlines = 0;
  let crlf = 0;
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) {
    newlines++;
    if (content.charCodeAt(i - 1) === 13) crlf++;
  }
  // Only a file whose every newline is CRLF is CRLF: an LF file that holds a `\r\n` stays LF.
  return newlines > 0 && crlf === newlines ? '\r\n' : '\n';
}

function splitLines(content: string, eol: string): string[] {
  const lines = content.split(eol);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The replacements of an update's chunks, in file order; throws PatchApplyError naming what was not found. */
export function computeReplacements(lines: readonly string[], path: string, chunks: readonly UpdateChunk[]): Replacement[] {
  const replacements: Replacement[] = [];
  let index = 0;
  for (const chunk of chunks) {
    if (chunk.context !== null) {
      const at = seekSequence(lines, [chunk.context], index, false);
      if (at === null) throw new PatchApplyError(`Failed to find context '${chunk.context}' in ${path}`);
      index = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      // A pure addition goes at the end of the file.
      replacements.push({ start: lines.length, oldLength: 0, lines: [...chunk.newLines] });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let found = seekSequence(lines, pattern, index, chunk.endOfFile);
    if (found === null && pattern[pattern.length - 1] === '') {
      // A trailing empty line stands for the file's final newline, which the lines do not hold.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === '') replacement = replacement.slice(0, -1);
      found = seekSequence(lines, pattern, index, chunk.endOfFile);
    }
    if (found === null) throw new PatchApplyError(`Failed to find expected lines in ${path}:\n${chunk.oldLines.join('\n')}`);
    replacements.push({ start: found, oldLength: pattern.length, lines: [...replacement] });
    index = found + pattern.length;
  }
  return replacements.sort((a, b) => a.start - b.start);
}

export function applyReplacements(lines: readonly string[], replacements: readonly Replacement[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const r of replacements) {
    for (; cursor < r.start; cursor++) out.push(lines[cursor]!);
    out.push(...r.lines);
    cursor = Math.max(cursor, r.start + r.oldLength);
  }
  for (; cursor < lines.length; cursor++) out.push(lines[cursor]!);
  return out;
}

/** An update's new content and diff; the file keeps its line endings and always ends with one. */
export function updatedContent(
  original: string,
  path: string,
  chunks: readonly UpdateChunk[],
): { content: string; diff: string; added: number; removed: number } {
  const eol = lineEnding(original);
  const lines = splitLines(original, eol);
  const replacements = computeReplacements(lines, path, chunks);
  const next = applyReplacements(lines, replacements);
  const { diff, added, removed } = unifiedDiff(lines, next, replacements);
  return { content: next.length === 0 ? '' : `${next.join(eol)}${eol}`, diff, added, removed };
}

const countLines = (text: string): number => splitLines(text, '\n').length;

/**
 * Every file's change, computed against the disk as it is now; a later hunk on a file sees what an
 * earlier one did to it. Throws PatchApplyError, and nothing has been written.
 */
export async function planPatch(hunks: readonly Hunk[], cwd: string): Promise<PlannedChange[]> {
  if (hunks.length === 0) throw new PatchApplyError('No files were modified.');
  const pending = new Map<string, string | null>();
  const read = async (path: string, what: string): Promise<string> => {
    if (pending.has(path)) {
      const content = pending.get(path);
      if (content === null || content === undefined) throw new PatchApplyError(`${what} ${path}: No such file or directory (os error 2)`);
      return content;
    }
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw new PatchApplyError(`${what} ${path}: ${ioReason(error)}`);
    }
  };
  const existing = async (path: string): Promise<string | null> => {
    if (pending.has(path)) return pending.get(path) ?? null;
    try {
      if (!(await stat(path)).isFile()) return null;
      return await readFile(path, 'utf8');
    } catch {
      return null;
    }
  };
  const abs = (path: string): string => (isAbsolute(path) ? path : resolve(cwd, path));
  const changes: PlannedChange[] = [];
  for (const hunk of hunks) {
    const path = abs(hunk.path);
    const base = { path, patchPath: hunk.path, movePath: null, patchMovePath: null };
    if (hunk.type === 'add') {
      changes.push({
        ...base,
        kind: 'add',
        oldContent: await existing(path),
        newContent: hunk.contents,
        diff: hunk.contents,
        added: countLines(hunk.contents),
        removed: 0,
      });
      pending.set(path, hunk.contents);
    } else if (hunk.type === 'delete') {
      const content = await read(path, 'Failed to read');
      changes.push({
        ...base,
        kind: 'delete',
        oldContent: content,
        newContent: null,
        diff: content,
        added: 0,
        removed: countLines(content),
      });
      pending.set(path, null);
    } else {
      const original = await read(path, 'Failed to read file to update');
      const { content, diff, added, removed } = updatedContent(original, path, hunk.chunks);
      const movePath = hunk.movePath === null ? null : abs(hunk.movePath);
      changes.push({
        ...base,
        kind: 'update',
        movePath,
        patchMovePath: hunk.movePath,
        oldContent: original,
        newContent: content,
        diff,
        added,
        removed,
      });
      if (movePath !== null && movePath !== path) {
        pending.set(path, null);
        pending.set(movePath, content);
      } else pending.set(path, content);
    }
  }
  return changes;
}

/** What one step did, to undo it. */
interface Undo {
  path: string;
  /** null: the file did not exist. */
  content: string | null;
}

async function put(path: string, content: string | null, undo: Undo[], before: string | null): Promise<void> {
  undo.push({ path, content: before });
  if (content === null) {
    await rm(path);
    return;
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

/** Writes the planned changes; a failure puts back what was written and throws with the reason. */
export async function writePlan(changes: readonly PlannedChange[]): Promise<void> {
  const undo: Undo[] = [];
  const current = new Map<string, string | null>();
  const before = (path: string, planned: string | null): string | null => (current.has(path) ? current.get(path)! : planned);
  try {
    for (const change of changes) {
      const target = change.movePath ?? change.path;
      if (change.kind === 'delete') await put(change.path, null, undo, before(change.path, change.oldContent));
      else {
        await put(target, change.newContent, undo, before(target, target === change.path ? change.oldContent : await readOrNull(target)));
        if (target !== change.path) await put(change.path, null, undo, before(change.path, change.oldContent));
      }
      current.set(target, change.newContent);
      if (target !== change.path) current.set(change.path, null);
    }
  } catch (error) {
    const failed = undo[undo.length - 1]?.path ?? 'the patch';
    for (const step of undo.reverse()) {
      await (step.content === null ? rm(step.path, { force: true }) : writeFile(step.path, step.content)).catch(() => undefined);
    }
    throw new PatchApplyError(`Failed to write ${failed}: ${ioReason(error)}`);
  }
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** Codex's summary: added, then modified (a moved file by its new path), then deleted. */
export function successSummary(changes: readonly PlannedChange[]): string {
  const line = (letter: string, kind: PlannedChange['kind']): string[] =>
    changes.filter((c) => c.kind === kind).map((c) => `${letter} ${c.patchMovePath ?? c.patchPath}\n`);
  return `Success. Updated the following files:\n${[...line('A', 'add'), ...line('M', 'update'), ...line('D', 'delete')].join('')}`;
}
