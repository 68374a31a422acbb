/**
 * `tiller diff --turn N` through the real bin: three `tiller exec` turns patch files; the patch of
 * turn 2, piped into `git apply` on a copy of the workspace as turn 1 left it, reproduces turn 2
 * byte for byte; the thread is found by id or as this directory's newest; bad turns get a message.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { tempDir } from '../support/config.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from '../support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

const patch = (body: string) => ({ customToolCalls: [{ name: 'apply_patch', input: `*** Begin Patch\n${body}\n*** End Patch` }] });

describe('tiller diff --turn', () => {
  it('prints a turn’s patch that git apply reproduces on a fresh copy', async () => {
    const ws = realpathSync(tempDir('tiller-ws-'));
    writeFileSync(join(ws, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(ws, 'gone.txt'), 'bye\n');
    const env = fakeServerEnv(fake);
    const exec = ['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5'];

    fake.enqueue(patch('*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three'), { text: 'turn 1' });
    const first = spawnTiller([...exec, 'first'], env, ws);
    expect(await first.exit).toBe(0);
    const threadId = jsonEvents(first.lines)[0]!.thread_id as string;
    const copy = tempDir('tiller-copy-');
    cpSync(ws, copy, { recursive: true });

    fake.enqueue(
      patch('*** Add File: src/new.ts\n+export const x = 1;\n*** Delete File: gone.txt\n*** Update File: a.txt\n@@\n three\n+four'),
      { functionCall: { name: 'shell', arguments: { command: 'chmod +x src/new.ts' }, callId: 'call_chmod' } },
      { text: 'turn 2' },
    );
    expect(
      await spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5', 'resume', threadId, 'second'], env, ws)
        .exit,
    ).toBe(0);
    const afterTwo = { a: readFileSync(join(ws, 'a.txt')), added: readFileSync(join(ws, 'src', 'new.ts')) };

    fake.enqueue(patch('*** Update File: a.txt\n@@\n-one\n+ONE'), { text: 'turn 3' });
    expect(
      await spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5', 'resume', threadId, 'third'], env, ws)
        .exit,
    ).toBe(0);

    const diff = spawnTiller(['diff', '--turn', '2', '--session', threadId], env, ws);
    expect(await diff.exit).toBe(0);
    const text = `${diff.lines.join('\n')}\n`;
    expect(text).toContain('diff --git a/a.txt b/a.txt');
    expect(text).toContain('new file mode 100755');
    execFileSync('git', ['apply'], { cwd: copy, input: text });
    expect(readFileSync(join(copy, 'a.txt')).equals(afterTwo.a)).toBe(true);
    expect(readFileSync(join(copy, 'src', 'new.ts')).equals(afterTwo.added)).toBe(true);
    expect(() => readFileSync(join(copy, 'gone.txt'))).toThrow();

    // No --session: this directory's newest thread.
    const here = spawnTiller(['diff', '--turn', '2'], env, ws);
    expect(await here.exit).toBe(0);
    expect(`${here.lines.join('\n')}\n`).toBe(text);

    const missing = spawnTiller(['diff', '--turn', '9', '--session', threadId], env, ws);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr()).toContain('tiller diff: the session has 3 turns, not 9');
    const bad = spawnTiller(['diff', '--turn', 'two'], env, ws);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toContain("--turn takes a turn number from 1, not 'two'");
    // Seven runs of the bin: more than the default budget on a loaded machine.
  }, 90_000);
});
