import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editInExternalEditor, editorCommand, NO_EDITOR_MESSAGE, type TerminalHandoff } from '../../../src/tui/terminal/external-editor.js';

function script(body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tiller-editor-'));
  const file = join(dir, 'fake-editor');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function recordingHandoff(log: string[]): TerminalHandoff {
  return { suspend: () => log.push('suspend'), resume: () => log.push('resume') };
}

describe('editorCommand', () => {
  it('prefers $VISUAL, then $EDITOR; blank values do not count', () => {
    expect(editorCommand({ VISUAL: 'code --wait', EDITOR: 'vi' })).toBe('code --wait');
    expect(editorCommand({ VISUAL: '  ', EDITOR: 'nano' })).toBe('nano');
    expect(editorCommand({})).toBeNull();
  });
});

describe('editInExternalEditor', () => {
  it('hands the terminal over, runs the editor on a file holding the draft, and returns what it saved', async () => {
    const log: string[] = [];
    const tmp = mkdtempSync(join(tmpdir(), 'tiller-drafts-'));
    const editor = script('printf "edited: %s" "$(cat "$1")" > "$1"');
    const result = await editInExternalEditor('the draft', {
      env: { ...process.env, VISUAL: '', EDITOR: editor },
      tmpDir: tmp,
      terminal: recordingHandoff(log),
    });
    expect(result).toEqual({ text: 'edited: the draft' });
    expect(log).toEqual(['suspend', 'resume']);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('passes editor arguments through the shell and a path with spaces as one argument', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'tiller drafts '));
    const editor = script('[ "$1" = "--wait" ] && [ -f "$2" ] && printf "ok" > "$2"');
    const result = await editInExternalEditor('x', { env: { VISUAL: `${editor} --wait` }, tmpDir: tmp, terminal: recordingHandoff([]) });
    expect(result).toEqual({ text: 'ok' });
  });

  it('says how to set an editor when there is none, without touching the terminal', async () => {
    const log: string[] = [];
    const result = await editInExternalEditor('x', { env: {}, tmpDir: tmpdir(), terminal: recordingHandoff(log) });
    expect(result).toEqual({ error: NO_EDITOR_MESSAGE });
    expect(log).toEqual([]);
  });

  it('an editor that fails leaves the draft unchanged and still gives the terminal back', async () => {
    const log: string[] = [];
    const tmp = mkdtempSync(join(tmpdir(), 'tiller-drafts-'));
    const editor = script('echo changed > "$1"; exit 3');
    const result = await editInExternalEditor('x', { env: { EDITOR: editor }, tmpDir: tmp, terminal: recordingHandoff(log) });
    expect(result).toEqual({ error: `The editor (${editor}) exited with code 3; the draft is unchanged.` });
    expect(log).toEqual(['suspend', 'resume']);
    expect(existsSync(join(tmp, 'draft.md'))).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
