/**
 * The composer's and footer's strings as the real bin shows them, and code highlighting in the scrollback:
 * the first answer with code arrives at once, before the highlighter has ever loaded, and must
 * still be printed in colour (the scrollback is never rewritten).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { composerLines, sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

describe('the screen', { timeout: 60_000 }, () => {
  it('shows the placeholder and `? for shortcuts` when empty, and `Working (Ns • esc to interrupt)` during a turn', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const idle = pty.screen();
    expect(composerLines(idle)[0]).toBe('› Ask Tiller to do anything');
    expect(idle).toMatch(/^ {2}\? for shortcuts/m);
    // Held after the first word, so the turn is still running when the screen is read.
    const gate = server.gate();
    server.enqueue({ deltas: ['Slow ', 'answer.'], hold: { gate, afterDeltas: 1 } });
    await typeSlowly(pty, 'go');
    pty.press('enter');
    const working = await pty.waitFor(/Working \(\d+s • esc to interrupt\)/);
    expect(working).toMatch(/^. Working \(\d+s • esc to interrupt\)$/m);
    gate.release();
    // A frame can reach the terminal in more than one read: wait for the whole idle screen.
    const done = await pty.waitFor(
      (s) => s.includes('Slow answer.') && !s.includes('esc to interrupt') && composerLines(s)[0] === '› Ask Tiller to do anything',
    );
    expect(done).toMatch(/^ {2}\? for shortcuts/m);
  });

  it('prints the first answer with code highlighted even when it arrives all at once', async () => {
    const session = await openSession();
    const { server, pty } = session;
    server.enqueue({ deltas: ['Here:\n\n```js\nconst answer = 42;\n```\n'] });
    await typeSlowly(pty, 'code');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('const answer = 42;') && !s.includes('esc to interrupt'));
    const raw = pty.raw();
    const row = raw.slice(raw.lastIndexOf('\n', raw.lastIndexOf('answer = ')), raw.indexOf('\n', raw.lastIndexOf('answer = ')));
    // The keyword has a colour of its own; plain code would colour the whole row at once.
    expect(row).toMatch(/\x1b\[[\d;]+mconst\x1b\[39m answer = /);
  });

  it('starts in Vim Normal mode with `vim_mode_default = true`, and the footer names the model from --model', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'tiller-vim-default-'));
    try {
      writeFileSync(path.join(home, 'config.toml'), 'vim_mode_default = true\n');
      const session = await openSession({ args: ['--model', 'model-from-flag'], env: { TILLER_HOME: home } });
      const { pty } = session;
      const footer = pty
        .screen()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .at(-1)!;
      expect(footer).toMatch(/^ {2}Vim: Normal +auto · model-from-flag$/);
      pty.write('i');
      await pty.waitFor(/^ {2}Vim: Insert +auto · model-from-flag$/m);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
