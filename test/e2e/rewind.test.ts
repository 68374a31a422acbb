/**
 * Rewinding through the real bin in a pty (issue 28), in a workspace of its own so checkpoints are
 * on: three turns patch files; Esc-Esc backtrack to the first with "files only" puts every file
 * back byte for byte (an added file removed, a deleted one restored, an executable's mode kept) and
 * leaves the conversation; /redo takes it back; a file edited by hand makes /undo name it and ask,
 * and cancelling writes nothing; conversation only leaves the files alone, /redo returns to the
 * session as it was, and "both" rewinds the two together; a resumed session can still redo its files.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OVERWRITE_TITLE } from '../../src/tui/chat/rewind/rewind-lines.js';
import { REWIND_CANCELLED } from '../../src/tui/chat/rewind/rewind-plan.js';
import { tempDir } from '../runtime/support/config.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { composerText, sessionPerTest, typeSlowly } from './helpers.js';

const openSession = sessionPerTest();

const patch = (body: string) => ({ customToolCalls: [{ name: 'apply_patch', input: `*** Begin Patch\n${body}\n*** End Patch` }] });

/** Every file of the workspace but `.git`: its bytes (base64) and permission bits. */
function snapshot(ws: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (full === join(ws, '.git')) continue;
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else out[relative(ws, full)] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(full).toString('base64')}`;
    }
  };
  walk(ws);
  return out;
}

function workspace(): string {
  const ws = realpathSync(tempDir('tiller-e2e-rewind-'));
  mkdirSync(join(ws, '.git'));
  writeFileSync(join(ws, 'keep.txt'), 'alpha\nbeta\n');
  writeFileSync(join(ws, 'gone.txt'), 'bye\n');
  writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(ws, 'gone.txt'), 0o644);
  chmodSync(join(ws, 'run.sh'), 0o755);
  return ws;
}

async function turn(pty: TillerPty, prompt: string, answer: string): Promise<void> {
  await typeSlowly(pty, prompt);
  pty.press('enter');
  await pty.waitFor((s) => s.includes(answer) && !s.includes('esc to interrupt'), 30_000);
}

async function slash(pty: TillerPty, command: string, shown: string): Promise<string> {
  await typeSlowly(pty, command);
  pty.press('enter');
  return pty.waitFor(shown, 30_000);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rewinding files and conversation', { timeout: 180_000 }, () => {
  it('backtrack with "files only" restores every file byte for byte; /redo, and a hand edit that is named and asked about', async () => {
    const ws = workspace();
    const initial = snapshot(ws);
    const { server, pty } = await openSession({ cwd: ws, rows: 40, cols: 110, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue(patch('*** Update File: keep.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: added1.txt\n+one'), { text: 'turn one done' });
    await turn(pty, 'first', 'turn one done');
    server.enqueue(patch('*** Delete File: gone.txt\n*** Add File: dir/added2.txt\n+two'), { text: 'turn two done' });
    await turn(pty, 'second', 'turn two done');
    const afterTwo = snapshot(ws);
    server.enqueue(
      patch('*** Update File: run.sh\n@@\n #!/bin/sh\n-echo hi\n+echo bye\n*** Update File: keep.txt\n@@\n alpha\n-BETA\n+BETA2'),
      {
        text: 'turn three done',
      },
    );
    await turn(pty, 'third', 'turn three done');
    const afterThree = snapshot(ws);
    expect(afterThree['run.sh']).toBe(`755 ${Buffer.from('#!/bin/sh\necho bye\n').toString('base64')}`);

    // Esc Esc opens the pager on the newest prompt; ← twice goes to the first.
    pty.press('esc');
    await pty.waitFor('esc again to edit previous message');
    pty.press('esc');
    await pty.waitFor((s) => pty.bufferType() === 'alternate' && s.includes('esc/← older'));
    pty.press('left');
    await pause(300);
    pty.press('left');
    await pause(300);
    pty.press('enter');
    const menu = await pty.waitFor((s) => pty.bufferType() === 'normal' && s.includes('Rewind to before “first”'));
    expect(menu).toContain('▸ 1. Rewind the conversation and the files');
    expect(menu).toContain('2. Rewind the conversation only');
    expect(menu).toContain('3. Rewind the files only');
    pty.write('3');
    let screen = await pty.waitFor('Files put back to before “first”', 30_000);
    expect(snapshot(ws)).toEqual(initial);
    // The conversation is left as it was: no fork, every answer still there.
    expect(screen).not.toContain('Editing an earlier message');
    expect(screen).toContain('turn three done');

    screen = await slash(pty, '/redo', 'Redo what the last undo took back');
    expect(screen).toMatch(/2\. Redo the conversation only \(no conversation undone to return to\)/);
    expect(screen).toContain('▸ 3. Redo the files only');
    pty.press('enter');
    await pty.waitFor('Files put back as they were before the undo', 30_000);
    expect(snapshot(ws)).toEqual(afterThree);

    writeFileSync(join(ws, 'keep.txt'), 'mine\n');
    await slash(pty, '/undo', 'Rewind to before “third”');
    pty.write('3');
    screen = await pty.waitFor(OVERWRITE_TITLE, 30_000);
    expect(screen).toMatch(/^ {2}keep\.txt\s*$/m);
    expect(screen).not.toMatch(/^ {2}run\.sh\s*$/m);
    pty.write('2');
    await pty.waitFor(REWIND_CANCELLED);
    expect(readFileSync(join(ws, 'keep.txt'), 'utf8')).toBe('mine\n');
    expect(snapshot(ws)['run.sh']).toBe(afterThree['run.sh']);

    await slash(pty, '/undo', 'Rewind to before “third”');
    pty.write('3');
    await pty.waitFor(OVERWRITE_TITLE, 30_000);
    pty.write('1');
    await pty.waitFor('Files put back to before “third”', 30_000);
    expect(snapshot(ws)).toEqual(afterTwo);

    // The redo puts back the workspace the undo found, the hand edit included.
    await slash(pty, '/redo', 'Redo what the last undo took back');
    pty.press('enter');
    await pty.waitFor((s) => s.split('Files put back as they were before the undo').length === 3, 30_000);
    expect(snapshot(ws)).toEqual({ ...afterThree, 'keep.txt': `644 ${Buffer.from('mine\n').toString('base64')}` });
  });

  it('conversation only leaves the files; /redo returns to the session; both rewinds files and conversation', async () => {
    const ws = workspace();
    const { server, pty } = await openSession({ cwd: ws, rows: 40, cols: 110, args: ['-m', 'gpt-5.5', '--full-auto'] });
    server.enqueue(patch('*** Add File: a.txt\n+one'), { text: 'turn one done' });
    await turn(pty, 'first', 'turn one done');
    const afterOne = snapshot(ws);
    server.enqueue(patch('*** Update File: a.txt\n@@\n-one\n+two'), { text: 'turn two done' });
    await turn(pty, 'second', 'turn two done');
    const afterTwo = snapshot(ws);

    pty.press('esc');
    await pty.waitFor('esc again to edit previous message');
    pty.press('esc');
    await pty.waitFor((s) => pty.bufferType() === 'alternate' && s.includes('esc/← older'));
    pty.press('enter');
    await pty.waitFor((s) => pty.bufferType() === 'normal' && s.includes('Rewind to before “second”'));
    pty.write('2');
    let screen = await pty.waitFor('Editing an earlier message', 30_000);
    expect(composerText(screen)).toBe('second');
    expect(screen).not.toContain('turn two done');
    expect(snapshot(ws)).toEqual(afterTwo);

    pty.press('ctrl-c');
    await pty.waitFor((s) => composerText(s) === '');
    screen = await slash(pty, '/redo', 'Redo what the last undo took back');
    expect(screen).toMatch(/3\. Redo the files only \(nothing of the files to redo\)/);
    expect(screen).toContain('▸ 2. Redo the conversation only');
    pty.press('enter');
    screen = await pty.waitFor('the conversation as it was before the undo', 30_000);
    expect(screen).toContain('turn two done');
    expect(snapshot(ws)).toEqual(afterTwo);

    await slash(pty, '/undo', 'Rewind to before “second”');
    pty.write('1');
    screen = await pty.waitFor((s) => s.includes('Files put back to before “second”') && s.includes('Editing an earlier message'), 30_000);
    expect(snapshot(ws)).toEqual(afterOne);
    expect(composerText(screen)).toBe('second');
  });

  it('a resumed session can still redo the files an undo put back (the rollout keeps the rewind)', async () => {
    const ws = workspace();
    const server = await FakeResponsesServer.start();
    const env = { TILLER_HOME: tempDir('tiller-e2e-rewind-home-'), OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' };
    const args = ['-m', 'gpt-5.5', '--full-auto'];
    const ptys: TillerPty[] = [];
    try {
      const first = startTiller({ cwd: ws, rows: 40, cols: 110, args, env });
      ptys.push(first);
      await first.waitFor('Ask Tiller to do anything');
      server.enqueue(patch('*** Add File: a.txt\n+one'), { text: 'turn one done' });
      await turn(first, 'first', 'turn one done');
      const after = snapshot(ws);
      await slash(first, '/undo', 'Rewind to before “first”');
      first.write('3');
      await first.waitFor('Files put back to before “first”', 30_000);
      expect(existsSync(join(ws, 'a.txt'))).toBe(false);
      first.press('ctrl-c');
      await first.waitFor('press Ctrl+C again to quit');
      first.press('ctrl-c');
      expect(await first.waitForExit()).toBe(0);

      const again = startTiller({ cwd: ws, rows: 40, cols: 110, args: ['resume', '--last', ...args], env });
      ptys.push(again);
      await again.waitFor('turn one done', 30_000);
      const menu = await slash(again, '/redo', 'Redo what the last undo took back');
      expect(menu).toContain('2. Redo the conversation only (no conversation undone to return to)');
      again.press('enter');
      await again.waitFor('Files put back as they were before the undo', 30_000);
      expect(snapshot(ws)).toEqual(after);
    } finally {
      for (const pty of ptys) pty.kill();
      await server.close();
    }
  });
});
