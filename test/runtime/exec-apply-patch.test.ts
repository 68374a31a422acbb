/**
 * apply_patch end to end: the fake model sends a freeform apply_patch call (or a shell heredoc),
 * the real `tiller exec --json` applies it, and the next request carries Codex's output.
 */
import { PATCH_UNATTENDED_OUTPUT } from '../../src/runtime/tools/apply-patch/run.js';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/config.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

/** The output the model got for its call, from the request after it. */
function toolOutput(type: 'custom_tool_call_output' | 'function_call_output'): string {
  const input = fake.requests[1]!.body.input as Array<{ type: string; output?: string }>;
  return input.find((item) => item.type === type)!.output!;
}

function workspace(): string {
  const ws = realpathSync(tempDir('tiller-ws-'));
  writeFileSync(join(ws, 'upd.txt'), 'alpha\nbeta\n');
  writeFileSync(join(ws, 'del.txt'), 'bye\n');
  return ws;
}

const PATCH =
  '*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** Update File: upd.txt\n@@\n alpha\n-beta\n+BETA\n*** Delete File: del.txt\n*** End Patch';

describe('apply_patch through tiller exec --json', () => {
  it('applies a freeform call in the workspace unasked: files on disk, Codex output, file_change items', async () => {
    const ws = workspace();
    fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'patched' });
    const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5', 'edit'], fakeServerEnv(fake), ws);
    expect(await child.exit).toBe(0);
    expect(readFileSync(join(ws, 'new.txt'), 'utf8')).toBe('fresh\n');
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\n');
    expect(existsSync(join(ws, 'del.txt'))).toBe(false);
    expect(fake.requests[0]!.body.tools).toContainEqual(expect.objectContaining({ type: 'custom', name: 'apply_patch' }));
    expect(toolOutput('custom_tool_call_output')).toMatch(
      /^Exit code: 0\nWall time: \d+(\.\d)? seconds\nOutput:\nSuccess\. Updated the following files:\nA new\.txt\nM upd\.txt\nD del\.txt\n$/,
    );
    const changes = [
      { path: join(ws, 'new.txt'), kind: 'add' },
      { path: join(ws, 'upd.txt'), kind: 'update' },
      { path: join(ws, 'del.txt'), kind: 'delete' },
    ];
    const events = jsonEvents(child.lines);
    expect(events).toContainEqual({ type: 'item.started', item: { id: 'item_0', type: 'file_change', changes, status: 'in_progress' } });
    expect(events).toContainEqual({ type: 'item.completed', item: { id: 'item_0', type: 'file_change', changes, status: 'completed' } });
  });

  it('writes nothing when a hunk does not match, and tells the model the file and the lines', async () => {
    const ws = workspace();
    const patch = '*** Begin Patch\n*** Add File: new.txt\n+x\n*** Update File: upd.txt\n@@\n-gamma\n+GAMMA\n*** End Patch';
    fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: patch }] }, { text: 'ok' });
    const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5', 'edit'], fakeServerEnv(fake), ws);
    expect(await child.exit).toBe(0);
    expect(toolOutput('custom_tool_call_output')).toBe(
      `apply_patch verification failed: Failed to find expected lines in ${join(ws, 'upd.txt')}:\ngamma`,
    );
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it('answers a malformed patch with the parse error and its line', async () => {
    const ws = workspace();
    fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Frob File: x\n*** End Patch' }] }, { text: 'ok' });
    const child = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'gpt-5.5', 'edit'], fakeServerEnv(fake), ws);
    expect(await child.exit).toBe(0);
    expect(toolOutput('custom_tool_call_output')).toMatch(
      /^apply_patch verification failed: invalid hunk at line 2, '\*\*\* Frob File: x' is not a valid hunk header/,
    );
  });

  it("routes a shell or exec_command call of apply_patch <<'EOF' to the same code, and a JSON-function call for other families", async () => {
    const ws = workspace();
    const command = `apply_patch <<'EOF'\n${PATCH}\nEOF\n`;
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command } } }, { text: 'ok' });
    const shell = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', 'edit'], fakeServerEnv(fake), ws);
    expect(await shell.exit).toBe(0);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\n');
    expect(toolOutput('function_call_output')).toMatch(
      /^Exit code: 0\n.*\nOutput:\nSuccess\. Updated the following files:\nA new\.txt\nM upd\.txt\nD del\.txt\n$/s,
    );

    const viaExec = workspace();
    fake.requests.length = 0;
    fake.enqueue({ functionCall: { name: 'exec_command', arguments: { cmd: command } } }, { text: 'ok' });
    const exec = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', 'edit'], fakeServerEnv(fake), viaExec);
    expect(await exec.exit).toBe(0);
    expect(readFileSync(join(viaExec, 'upd.txt'), 'utf8')).toBe('alpha\nBETA\n');
    expect(toolOutput('function_call_output')).toMatch(/Success\. Updated the following files:\nA new\.txt\nM upd\.txt\nD del\.txt\n$/);

    const other = workspace();
    fake.requests.length = 0;
    fake.enqueue({ functionCall: { name: 'apply_patch', arguments: { input: PATCH } } }, { text: 'ok' });
    const fn = spawnTiller(['exec', '--json', '--skip-git-repo-check', '--full-auto', '-m', 'llama3', 'edit'], fakeServerEnv(fake), other);
    expect(await fn.exit).toBe(0);
    expect(fake.requests[0]!.body.tools).toContainEqual(expect.objectContaining({ type: 'function', name: 'apply_patch' }));
    expect(readFileSync(join(other, 'new.txt'), 'utf8')).toBe('fresh\n');
  });

  it('refuses, under every policy, a patch into TILLER_HOME or the real gitdir behind a .git pointer', async () => {
    const ws = workspace();
    const home = join(ws, 'tiller-home');
    mkdirSync(home);
    mkdirSync(join(ws, '.realgit', 'hooks'), { recursive: true });
    writeFileSync(join(ws, '.realgit', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(ws, '.git'), 'gitdir: .realgit\n');
    for (const sandbox of [['--full-auto'], ['-s', 'danger-full-access']]) {
      for (const target of [join(home, 'config.toml'), '.realgit/hooks/pre-commit']) {
        fake.requests.length = 0;
        const patch = `*** Begin Patch\n*** Add File: ${target}\n+evil\n*** End Patch`;
        fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: patch }] }, { text: 'ok' });
        const child = spawnTiller(
          ['exec', '--json', '--skip-git-repo-check', ...sandbox, '-m', 'gpt-5.5', 'edit'],
          fakeServerEnv(fake, { TILLER_HOME: home }),
          ws,
        );
        expect(await child.exit).toBe(0);
        expect(toolOutput('custom_tool_call_output')).toMatch(
          /^patch rejected: .* is inside (Tiller's home|a git directory), which is never writable$/,
        );
        expect(existsSync(join(home, 'config.toml'))).toBe(false);
        expect(existsSync(join(ws, '.realgit', 'hooks', 'pre-commit'))).toBe(false);
        expect(jsonEvents(child.lines)).toContainEqual(
          expect.objectContaining({ type: 'item.completed', item: expect.objectContaining({ type: 'file_change', status: 'failed' }) }),
        );
      }
    }
  });

  it('asks outside the writable roots: read-only with nobody to ask is not applied (and not called a decline), nothing written', async () => {
    const ws = workspace();
    fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: PATCH }] }, { text: 'ok' });
    const child = spawnTiller(
      ['exec', '--json', '--skip-git-repo-check', '-s', 'read-only', '-m', 'gpt-5.5', 'edit'],
      fakeServerEnv(fake),
      ws,
    );
    expect(await child.exit).toBe(0);
    expect(toolOutput('custom_tool_call_output')).toBe(PATCH_UNATTENDED_OUTPUT);
    expect(readFileSync(join(ws, 'upd.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });
});
