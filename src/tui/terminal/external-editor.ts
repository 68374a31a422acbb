/**
 * Ctrl+G: the draft in the user's editor ($VISUAL, else $EDITOR, run by the shell so `code --wait`
 * works). The terminal is handed over while it runs (the chat screen holds still, raw mode and the
 * keyboard modes are off) and taken back after, whatever the editor did.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type ExternalEditResult = { text: string } | { error: string };

export interface TerminalHandoff {
  suspend(): void;
  resume(): void;
}

export interface ExternalEditorOptions {
  env: NodeJS.ProcessEnv;
  tmpDir: string;
  terminal: TerminalHandoff;
}

export const NO_EDITOR_MESSAGE = 'Cannot open an external editor: set $VISUAL or $EDITOR.';

export function editorCommand(env: NodeJS.ProcessEnv): string | null {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return null;
}

export async function editInExternalEditor(text: string, opts: ExternalEditorOptions): Promise<ExternalEditResult> {
  const editor = editorCommand(opts.env);
  if (editor === null) return { error: NO_EDITOR_MESSAGE };
  const dir = await mkdtemp(join(opts.tmpDir, 'tiller-draft-'));
  const file = join(dir, 'draft.md');
  try {
    await writeFile(file, text, { mode: 0o600 });
    opts.terminal.suspend();
    let outcome: string | null;
    try {
      outcome = await runEditor(editor, file, opts.env);
    } finally {
      opts.terminal.resume();
    }
    if (outcome !== null) return { error: outcome };
    return { text: await readFile(file, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Null when the editor exited 0, else why the draft stays as it was. */
function runEditor(editor: string, file: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'tiller-editor', file], { stdio: 'inherit', env });
    child.once('error', (error) => resolve(`Cannot run the editor (${editor}): ${error.message}`));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(null);
      else resolve(`The editor (${editor}) exited with ${signal ?? `code ${code}`}; the draft is unchanged.`);
    });
  });
}
