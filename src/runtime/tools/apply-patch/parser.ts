/**
 * The patch language of Codex's apply_patch (grammar.ts), parsed as leniently as Codex parses it:
 * markers may carry surrounding whitespace, the whole text may be wrapped in a `<<'EOF'` heredoc,
 * blank lines between chunks are skipped, and the first chunk of an update may omit its `@@`.
 * Nothing here touches the file system.
 */

export interface UpdateChunk {
  /** The `@@ <line>` that narrows where the chunk applies (a class or function line); null for a bare `@@`. */
  context: string | null;
  /** The lines the chunk replaces (context and `-` lines), then what replaces them (context and `+` lines). */
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the old lines sit at the end of the file. */
  endOfFile: boolean;
}

export type Hunk =
  | { type: 'add'; path: string; contents: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; movePath: string | null; chunks: UpdateChunk[] };

export class PatchParseError extends Error {
  /** The patch line (1-based) the problem is on; null when it is about the whole patch. */
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(line === null ? `invalid patch: ${message}` : `invalid hunk at line ${line}, ${message}`);
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';
const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

/** The hunks of a patch; throws PatchParseError with the line at fault. */
export function parsePatch(text: string): Hunk[] {
  const lines = text.trim().split(/\r?\n/);
  const body = patchBody(lines);
  const hunks: Hunk[] = [];
  let index = 0;
  // Line numbers count from the patch's first line, as Codex reports them.
  const lineOffset = body.offset;
  while (index < body.lines.length) {
    const { hunk, consumed } = parseHunk(body.lines, index, lineOffset);
    hunks.push(hunk);
    index += consumed;
  }
  return hunks;
}

function patchBody(lines: string[]): { lines: string[]; offset: number } {
  const bounded = (from: number, to: number): boolean => lines[from]?.trim() === BEGIN && to > from && lines[to]?.trim() === END;
  const last = lines.length - 1;
  if (bounded(0, last)) return { lines: lines.slice(1, last), offset: 1 };
  // A heredoc around the patch (`<<'EOF'` … `EOF`), as a model writes it for a shell.
  if (lines.length >= 4 && HEREDOC_OPENERS.has(lines[0]!) && lines[last]!.endsWith('EOF') && bounded(1, last - 1)) {
    return { lines: lines.slice(2, last - 1), offset: 2 };
  }
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`The first line of the patch must be '${BEGIN}'`, null);
  throw new PatchParseError(`The last line of the patch must be '${END}'`, null);
}

function parseHunk(lines: string[], start: number, lineOffset: number): { hunk: Hunk; consumed: number } {
  const header = lines[start]!.trim();
  const lineNumber = start + lineOffset + 1;
  if (header.startsWith(ADD)) {
    const contents: string[] = [];
    let index = start + 1;
    while (index < lines.length && lines[index]!.startsWith('+')) contents.push(lines[index++]!.slice(1));
    return {
      hunk: { type: 'add', path: header.slice(ADD.length), contents: contents.map((line) => `${line}\n`).join('') },
      consumed: index - start,
    };
  }
  if (header.startsWith(DELETE)) return { hunk: { type: 'delete', path: header.slice(DELETE.length) }, consumed: 1 };
  if (header.startsWith(UPDATE)) {
    const path = header.slice(UPDATE.length);
    let index = start + 1;
    let movePath: string | null = null;
    if (lines[index]?.startsWith(MOVE)) movePath = lines[index++]!.slice(MOVE.length).trim();
    const chunks: UpdateChunk[] = [];
    while (index < lines.length) {
      const line = lines[index]!;
      // Blank lines between chunks are skipped; a `*` line starts the next hunk.
      if (line.trim() === '') {
        index++;
        continue;
      }
      if (line.startsWith('*')) break;
      const parsed = parseChunk(lines, index, index + lineOffset + 1, chunks.length === 0);
      chunks.push(parsed.chunk);
      index += parsed.consumed;
    }
    if (chunks.length === 0) throw new PatchParseError(`Update file hunk for path '${path}' is empty`, lineNumber);
    return { hunk: { type: 'update', path, movePath, chunks }, consumed: index - start };
  }
  throw new PatchParseError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    lineNumber,
  );
}

function parseChunk(lines: string[], start: number, lineNumber: number, firstChunk: boolean): { chunk: UpdateChunk; consumed: number } {
  const first = lines[start]!;
  let context: string | null = null;
  let index = start;
  if (first === '@@' || first.trimEnd() === '@@') index++;
  else if (first.startsWith('@@ ')) {
    context = first.slice(3);
    index++;
  } else if (!firstChunk) {
    throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${first}'`, lineNumber);
  }
  if (index >= lines.length) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
  const chunk: UpdateChunk = { context, oldLines: [], newLines: [], endOfFile: false };
  let parsed = 0;
  for (; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === EOF_MARKER) {
      if (parsed === 0) throw new PatchParseError('Update hunk does not contain any lines', lineNumber + 1);
      chunk.endOfFile = true;
      index++;
      break;
    }
    const marker = line[0];
    if (marker === undefined) {
      // An empty line stands for an empty context line.
      chunk.oldLines.push('');
      chunk.newLines.push('');
    } else if (marker === ' ') {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === '+') chunk.newLines.push(line.slice(1));
    else if (marker === '-') chunk.oldLines.push(line.slice(1));
    else {
      if (parsed === 0) {
        throw new PatchParseError(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      // The start of the next chunk (`@@`) or hunk.
      break;
    }
    parsed++;
  }
  return { chunk, consumed: index - start };
}
