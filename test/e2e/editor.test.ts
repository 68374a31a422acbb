/**
 * Ctrl+G end to end: the draft goes to $EDITOR (a script standing in for vim) with the terminal
 * handed over, and what it saved comes back into the composer and is sent.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composerText, lastUserText, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

/** An editor that notes whether the terminal was in cooked mode, then rewrites the file. */
function fakeEditor(): { path: string; modeFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tiller-e2e-editor-'));
  const path = join(dir, 'editor');
  const modeFile = join(dir, 'mode');
  writeFileSync(
    path,
    `#!/bin/sh\nif stty -a | grep -q -- '-icanon'; then echo raw > '${modeFile}'; else echo cooked > '${modeFile}'; fi\nprintf 'edited: %s\\n' "$(cat "$1")" > "$1"\n`,
  );
  chmodSync(path, 0o755);
  return { path, modeFile };
}

describe('the external editor', { timeout: 60_000 }, () => {
  it('Ctrl+G opens the draft in $EDITOR with the terminal in cooked mode and its modes off; the result is the new draft', async () => {
    const editor = fakeEditor();
    const session = await openSession({ env: { EDITOR: editor.path } });
    const { server, pty } = session;
    server.enqueue({ text: 'Got it.' });
    await typeSlowly(pty, 'rough draft');
    const before = pty.raw().length;
    pty.press('ctrl-g');
    await pty.waitFor((s) => composerText(s) === 'edited: rough draft');
    expect(readFileSync(editor.modeFile, 'utf8').trim()).toBe('cooked');
    const during = pty.raw().slice(before);
    expect(during.indexOf('\x1b[?2004l')).toBeGreaterThanOrEqual(0);
    expect(during.lastIndexOf('\x1b[?2004h')).toBeGreaterThan(during.indexOf('\x1b[?2004l'));
    pty.press('enter');
    await pty.waitFor('Got it.');
    const [request] = await waitForRequests(session, 1);
    expect(lastUserText(request!)).toBe('edited: rough draft');
  });

  it('without $VISUAL or $EDITOR, Ctrl+G says so and the draft stays', async () => {
    const session = await openSession({ env: { EDITOR: undefined, VISUAL: undefined } });
    const { pty } = session;
    await typeSlowly(pty, 'keep me');
    pty.press('ctrl-g');
    const screen = await pty.waitFor('set $VISUAL or $EDITOR');
    expect(composerText(screen)).toBe('keep me');
  });
});
