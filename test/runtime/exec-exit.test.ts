import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { alive, until, waitForPid } from './support/process.js';
import { childEnv, fakeServerEnv, ROOT, runSupportScript, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

/** Runs exec in a child and returns what kept its event loop alive after main() returned. */
async function leftovers(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; resources: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/runtime/support/exec-handles.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  const line = stderr.split('\n').find((l) => l.startsWith('HANDLES '));
  if (!line) throw new Error(`no report: ${stderr.slice(-500)}`);
  return JSON.parse(line.slice('HANDLES '.length)) as { code: number; resources: string[] };
}

const STDIO = new Set(['PipeWrap', 'TTYWrap']);

describe('tiller exec leaves nothing running once the turn completed (so it exits at once)', () => {
  it('offline model, text mode', async () => {
    const result = await leftovers(['--full-auto', 'hi'], childEnv({ TILLER_OFFLINE_DELAY_MS: '0' }));
    expect(result.code).toBe(0);
    expect(result.resources.filter((r) => !STDIO.has(r))).toEqual([]);
  });

  it('offline model after running a command', async () => {
    const result = await leftovers(['--full-auto', 'run: echo hi'], childEnv({ TILLER_OFFLINE_DELAY_MS: '0' }));
    expect(result.code).toBe(0);
    expect(result.resources.filter((r) => !STDIO.has(r))).toEqual([]);
  });

  it('over HTTP (keep-alive connection to the server), --json', async () => {
    fake.enqueue({ text: 'answer' });
    const result = await leftovers(['--json', 'hi'], fakeServerEnv(fake));
    expect(result.code).toBe(0);
    expect(result.resources.filter((r) => !STDIO.has(r))).toEqual([]);
  });
});

describe('commands never outlive Tiller', () => {
  it('process.exit() kills the process groups of running commands and hooks', async () => {
    const pids = await runSupportScript<number[]>('exit-while-running');
    expect(pids).toHaveLength(2);
    await until(() => pids.every((pid) => !alive(pid)));
  });

  it('SIGTERM to `tiller exec` interrupts the turn, kills the running command and exits 143', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `echo $$ > ${pidFile}; sleep 30` } } });
    // Outside the sandbox, so the pid the command writes is one this test can see.
    const child = spawnTiller(
      ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'x'],
      fakeServerEnv(fake),
      dir,
    );
    const pid = await waitForPid(pidFile);
    expect(alive(pid)).toBe(true);
    child.proc.kill('SIGTERM');
    expect(await child.exit).toBe(143);
    await until(() => !alive(pid));
  });
});
