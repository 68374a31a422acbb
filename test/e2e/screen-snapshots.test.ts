/**
 * Whole screens of key states, read through the headless terminal from the real bin in a pty and
 * kept as plain-text file snapshots (test/e2e/__screens__/): the empty composer, an answer held
 * mid-stream by the fake server's gate, pending steers with a queued message, the approval prompt and
 * the slash popup, at 120×40, and the pending state again at 60×20.
 *
 * What varies between runs is replaced before the comparison (normalise below):
 *   - the fake server's port in the header → `127.0.0.1:<port>`, the version → `v<version>` (the
 *     box row padded back to its width);
 *   - the test's temporary HOME in a path → `~` (the header already says `~/project`);
 *   - the turn's elapsed seconds `(3s •` → `(Ns •`, a steer receipt's `0.4 s after Enter` →
 *     `N.N s after Enter`, and the spinner glyph before `Working` → `•`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TILLER_VERSION } from '../../src/version.js';
import type { StartOptions, TillerPty } from '../support/pty.js';
import { sessionPerTest, typeSlowly, type Session } from './helpers.js';

const openSession = sessionPerTest();

let home: string | null = null;
afterEach(() => {
  if (home !== null) rmSync(home, { recursive: true, force: true });
  home = null;
});

/** The bin in `~/project` of a fresh HOME, so the header's directory reads the same every run. */
function open(cols: number, rows: number, options: StartOptions = {}): Promise<Session> {
  home = mkdtempSync(join(tmpdir(), 'tiller-snap-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  return openSession({ cols, rows, cwd, ...options, env: { HOME: home, ...options.env } });
}

function normalise(screen: string, homeDir: string): string {
  return screen
    .split('\n')
    .map((row) => {
      const out = row
        .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
        .replace(`(v${TILLER_VERSION})`, '(v<version>)')
        .replaceAll(homeDir, '~')
        .replace(/\(\d+s •/g, '(Ns •')
        .replace(/\d+\.\d s after Enter/g, 'N.N s after Enter')
        .replace(/^\S Working \(/, '• Working (');
      // A row of the header box keeps its width.
      return row.endsWith('│') && out !== row
        ? `${out
            .slice(0, -1)
            .trimEnd()
            .padEnd(row.length - 1)}│`
        : out;
    })
    .join('\n');
}

/** The screen once `ready` holds for a whole frame, normalised. */
async function screenWhen(pty: TillerPty, ready: (screen: string) => boolean): Promise<string> {
  return normalise(await pty.waitFor(ready), home!);
}

/** Starts a turn whose answer stops after "The answer starts here" until the gate is released. */
async function heldTurn({ server, pty }: Session): Promise<void> {
  const gate = server.gate();
  server.enqueue({ text: 'The answer starts here and goes on after the gate.', hold: { gate, afterDeltas: 4 } });
  await typeSlowly(pty, 'first question');
  pty.press('enter');
}

/** A held turn with a steer waiting for the next tool call and a message queued after it. */
async function pendingAndQueued(session: Session): Promise<void> {
  const { pty } = session;
  await heldTurn(session);
  await pty.waitFor('The answer starts here');
  await typeSlowly(pty, 'steer one');
  pty.press('enter');
  await pty.waitFor('↳ steer one');
  await typeSlowly(pty, 'later');
  pty.press('tab');
}

const snapshot = (name: string): string => `./__screens__/${name}.txt`;

describe('whole screens of key states', { timeout: 60_000 }, () => {
  it('the empty composer (120×40)', async () => {
    const { pty } = await open(120, 40);
    const screen = await screenWhen(pty, (s) => s.includes('? for shortcuts'));
    await expect(screen).toMatchFileSnapshot(snapshot('empty-composer-120x40'));
  });

  it('an answer held mid-stream (120×40)', async () => {
    const session = await open(120, 40);
    await heldTurn(session);
    const screen = await screenWhen(session.pty, (s) => s.includes('• The answer starts here\n') && s.includes('esc to interrupt'));
    await expect(screen).toMatchFileSnapshot(snapshot('streaming-held-120x40'));
  });

  it('pending steers and a queued message (120×40)', async () => {
    const session = await open(120, 40);
    await pendingAndQueued(session);
    const screen = await screenWhen(session.pty, (s) => s.includes('↳ later') && s.includes('edit last queued message'));
    await expect(screen).toMatchFileSnapshot(snapshot('pending-and-queued-120x40'));
  });

  it('the approval prompt (120×40)', async () => {
    // No sandbox: on-request then asks before every command.
    const session = await open(120, 40, { args: ['-s', 'danger-full-access'] });
    const { server, pty } = session;
    server.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo snapshot' } } });
    await typeSlowly(pty, 'run it');
    pty.press('enter');
    const screen = await screenWhen(
      pty,
      (s) => s.includes('Would you like to run the following command?') && s.includes('n or esc to decline'),
    );
    await expect(screen).toMatchFileSnapshot(snapshot('approval-prompt-120x40'));
  });

  it('the slash popup (120×40)', async () => {
    const { pty } = await open(120, 40);
    await typeSlowly(pty, '/');
    const screen = await screenWhen(pty, (s) => s.includes('choose the model and its reasoning effort'));
    await expect(screen).toMatchFileSnapshot(snapshot('slash-popup-120x40'));
  });

  it('pending steers and a queued message (60×20)', async () => {
    const session = await open(60, 20);
    await pendingAndQueued(session);
    const screen = await screenWhen(session.pty, (s) => s.includes('↳ later') && s.includes('edit last queued'));
    await expect(screen).toMatchFileSnapshot(snapshot('pending-and-queued-60x20'));
  });
});
