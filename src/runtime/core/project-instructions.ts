/**
 * Project instructions, as Codex reads them: `$TILLER_HOME/AGENTS.md` (the user's own, global) first,
 * then each `AGENTS.md` from the repository root (the nearest ancestor of the cwd holding `.git`; with
 * no repository, the cwd alone) down to the cwd, root first. Read once per thread, at thread/start,
 * within one size budget (`project_doc_max_bytes`, 32 KiB by default as in Codex; 0 turns them off):
 * a file over what is left is cut on a character boundary, and later files are left out, each named
 * in a warning. CLAUDE.md and other agents' files are not read.
 */
import { statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

export const PROJECT_DOC_FILENAME = 'AGENTS.md';
export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;
/** Codex's opening of the instructions message; the model knows the shape. */
export const PROJECT_DOC_PREFIX = '# AGENTS.md instructions for ';

/** One file read for the thread. */
export interface InstructionFile {
  /** Absolute path. */
  path: string;
  /** Bytes sent to the model (fewer than fileBytes when the budget cut it; 0 when it was left out). */
  bytes: number;
  /** The file's size. */
  fileBytes: number;
}

export interface ProjectInstructions {
  /** The files with content, in the order sent. */
  files: InstructionFile[];
  /** The message's text (a user message, as Codex sends it); null when no file has content. */
  message: string | null;
  /** For the user: what the budget cut, files that could not be read. */
  warnings: string[];
}

export interface ProjectInstructionsOptions {
  cwd: string;
  /** `$TILLER_HOME`: its AGENTS.md is the global file. */
  home: string;
  maxBytes?: number;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The nearest directory from `cwd` up that holds `.git` (a directory, or a worktree's file); null outside a repository. */
export async function findRepositoryRoot(cwd: string): Promise<string | null> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (await exists(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The directories searched for AGENTS.md, root first: root…cwd in a repository, else the cwd alone. */
export async function projectDocDirectories(cwd: string): Promise<{ root: string; directories: string[] }> {
  const root = (await findRepositoryRoot(cwd)) ?? cwd;
  const directories: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    directories.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return { root, directories };
}

/** `AGENTS.md`, `src/AGENTS.md`: the header a project file gets (POSIX separators, for the model). */
function projectLabel(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}

/** The first `limit` bytes of a file (the whole of a smaller one) and the file's size. */
async function readHead(path: string, limit: number): Promise<{ head: Buffer; size: number }> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size, limit);
    const head = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(head, read, length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { head: head.subarray(0, read), size };
  } finally {
    await handle.close();
  }
}

/** Backs off to the start of a UTF-8 sequence the cut would split. */
function utf8Boundary(bytes: Buffer, end: number): number {
  if (end >= bytes.length) return bytes.length;
  let cut = end;
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut -= 1;
  return cut;
}

interface Section {
  header: string;
  text: string;
}

/** The AGENTS.md message: Codex's wording, one `--- header ---` section per file. */
export function instructionsMessage(cwd: string, sections: readonly Section[]): string {
  const body = sections.map((s) => `--- ${s.header} ---\n${s.text}`).join('\n\n');
  return `${PROJECT_DOC_PREFIX}${cwd}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>`;
}

/** Reads the instructions for a thread in `cwd`; never throws (an unreadable file is a warning). */
export async function loadProjectInstructions(options: ProjectInstructionsOptions): Promise<ProjectInstructions> {
  const maxBytes = options.maxBytes ?? DEFAULT_PROJECT_DOC_MAX_BYTES;
  if (maxBytes <= 0) return { files: [], message: null, warnings: [] };
  const { root, directories } = await projectDocDirectories(options.cwd);
  const candidates: Array<{ path: string; header: string }> = [];
  const global = join(options.home, PROJECT_DOC_FILENAME);
  if (await isFile(global)) candidates.push({ path: global, header: `${global} (global)` });
  for (const dir of directories) {
    const path = join(dir, PROJECT_DOC_FILENAME);
    if (path !== global && (await isFile(path))) candidates.push({ path, header: projectLabel(root, path) });
  }

  const files: InstructionFile[] = [];
  const sections: Section[] = [];
  const cut: string[] = [];
  const warnings: string[] = [];
  let remaining = maxBytes;
  for (const candidate of candidates) {
    let head: Buffer;
    let size: number;
    try {
      // A few bytes past the budget show whether the cut would split a character.
      ({ head, size } = await readHead(candidate.path, Math.max(0, remaining) + 4));
    } catch (error) {
      warnings.push(`could not read ${candidate.path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      continue;
    }
    const kept = size > remaining ? head.subarray(0, utf8Boundary(head, Math.max(0, remaining))) : head;
    const text = kept.toString('utf8').replace(/\s+$/u, '');
    // An empty file says nothing (as in Codex); one the budget left no room for is still named.
    if (kept.length === size && text.trim().length === 0) continue;
    remaining -= kept.length;
    files.push({ path: candidate.path, bytes: kept.length, fileBytes: size });
    if (kept.length < size) {
      cut.push(
        kept.length === 0 ? `${candidate.path} left out (${size} bytes)` : `${candidate.path} cut to ${kept.length} of ${size} bytes`,
      );
    }
    if (text.trim().length === 0) continue;
    const header = kept.length < size ? `${candidate.header} (cut to ${kept.length} of ${size} bytes)` : candidate.header;
    sections.push({ header, text });
  }
  if (cut.length > 0) {
    warnings.unshift(`AGENTS.md instructions are over project_doc_max_bytes (${maxBytes} bytes): ${cut.join('; ')}`);
  }
  return { files, message: sections.length === 0 ? null : instructionsMessage(options.cwd, sections), warnings };
}

/** Whether `dir` has its own AGENTS.md (`/init` then writes nothing); one stat, so synchronous. */
export function hasProjectDoc(dir: string): boolean {
  try {
    return statSync(join(dir, PROJECT_DOC_FILENAME)).isFile();
  } catch {
    return false;
  }
}

/**
 * `/init`: asks the model to write AGENTS.md for the repository, in the spirit of Codex's /init
 * (inspect first, then a concise contributor guide; never overwrite one that exists).
 */
export const INIT_PROMPT = `Create an AGENTS.md file in the current directory: a concise guide for coding agents (and people) working in this repository. Tiller and other agents read it at the start of every conversation.

First inspect the repository: its layout, the build, test and lint setup (package manifests, Makefiles, CI workflows, scripts), and the conventions the code already follows. Then write AGENTS.md in Markdown with short sections such as:
- Project structure: where the source, tests and assets live, and what the main modules do.
- Build, test and development commands: the exact commands, and what each does.
- Coding style and naming conventions, with the formatters or linters that enforce them.
- Testing guidelines: frameworks, where tests go, how to run one test.
- Commit and pull request guidelines, if the history or the docs show any.

Only state what you found in the repository; do not invent commands. Keep it to what an agent needs (about 200-400 words). If an AGENTS.md already exists here, do not overwrite it.`;
