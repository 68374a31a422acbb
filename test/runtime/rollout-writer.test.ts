/** The rollout writer: created with the first real line, buffered, 0600 in 0700 directories, one writer a thread (lock), written out on exit. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/runtime/core/ids.js';
import { ROLLOUT_VERSION, type RolloutLine } from '../../src/runtime/rollout/format.js';
import { acquireLock, SessionLockedError } from '../../src/runtime/rollout/lock.js';
import { lockPathOf, rolloutPath } from '../../src/runtime/rollout/paths.js';
import { readRollout } from '../../src/runtime/rollout/reader.js';
import { FileRolloutWriter } from '../../src/runtime/rollout/writer.js';
import { tempDir } from './support/harness.js';
import { until } from './support/process.js';
import { ROOT } from './support/spawn.js';

function header(threadId: string): RolloutLine {
  return {
    type: 'header',
    version: ROLLOUT_VERSION,
    threadId,
    sessionId: threadId,
    cwd: '/w',
    model: 'm',
    provider: 'p',
    createdAt: Date.now(),
    cliVersion: '0',
    source: 'cli',
    forkedFromId: null,
  };
}
const entry = (text: string): RolloutLine => ({
  type: 'history',
  turnId: null,
  entry: { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } },
});
const lines = (path: string): Array<{ type: string }> =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string });

describe('FileRolloutWriter', () => {
  it('writes nothing until a line makes the thread worth a file; then 0600 in 0700 directories, after the flush window', async () => {
    const home = tempDir();
    const threadId = newId();
    const path = rolloutPath(home, threadId, Date.now());
    const writer = new FileRolloutWriter({ path, threadId, flushIntervalMs: 20 });
    writer.append(header(threadId));
    writer.append({
      type: 'settings',
      settings: { model: 'm', effort: null, approvalPolicy: 'never', sandboxPolicy: { type: 'dangerFullAccess' }, cwd: '/w' },
    });
    await writer.flush();
    expect(existsSync(path)).toBe(false);
    expect(writer.materialized).toBe(false);
    writer.append(entry('first'));
    expect(existsSync(path)).toBe(false); // buffered, not written in the call
    await until(() => existsSync(path) && lines(path).length === 3);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    for (let dir = dirname(path); dir !== home; dir = dirname(dir)) expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(lockPathOf(path), 'utf8').trim()).toBe(String(process.pid));
    writer.append(entry('second'));
    await writer.close();
    expect(lines(path).map((l) => l.type)).toEqual(['header', 'settings', 'history', 'history']);
    expect(existsSync(lockPathOf(path))).toBe(false);
  });

  it('a thread with no real line leaves no file at all', async () => {
    const home = tempDir();
    const threadId = newId();
    const path = rolloutPath(home, threadId, Date.now());
    const writer = new FileRolloutWriter({ path, threadId });
    writer.append(header(threadId));
    await writer.close();
    expect(existsSync(join(home, 'sessions'))).toBe(false);
  });

  it('a write that fails (a file where the sessions directory goes) is told once; nothing throws', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'sessions'), 'not a directory');
    const threadId = newId();
    const errors: Error[] = [];
    const writer = new FileRolloutWriter({ path: rolloutPath(home, threadId, Date.now()), threadId, onError: (e) => errors.push(e) });
    writer.append(header(threadId));
    writer.append(entry('x'));
    await writer.flush();
    writer.append(entry('y'));
    await writer.close();
    expect(errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['ENOTDIR']);
  });

  it('on process.exit, what is buffered (and a write in flight) is written once, and the lock released', () => {
    const dir = tempDir();
    const path = join(dir, 'sessions', 'r.jsonl');
    const script = join(dir, 'exit.mts');
    writeFileSync(
      script,
      `import { FileRolloutWriter } from ${JSON.stringify(join(ROOT, 'src/runtime/rollout/writer.ts'))};
const [path, id] = process.argv.slice(2);
const writer = new FileRolloutWriter({ path, threadId: id, flushIntervalMs: 60_000 });
const line = (text) => ({ type: 'history', turnId: null, entry: { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } } });
writer.append(${JSON.stringify(header('00000000-0000-7000-8000-000000000000'))});
writer.append(line('flushed'));
await writer.flush();
writer.append(line('in flight'));
void writer.flush();
writer.append(line('buffered'));
process.exit(0);
`,
    );
    execFileSync(process.execPath, ['--import', 'tsx', script, path, '00000000-0000-7000-8000-000000000000'], { cwd: ROOT });
    const texts = lines(path)
      .slice(1)
      .map((l) => (l as unknown as { entry: { item: { content: Array<{ text: string }> } } }).entry.item.content[0]!.text);
    expect(texts).toEqual(['flushed', 'in flight', 'buffered']);
    expect(existsSync(lockPathOf(path))).toBe(false);
  });
});

describe('the lock', () => {
  it('a second writer of one thread is refused with the holder pid, until the first releases it', async () => {
    const path = join(tempDir(), 'r.jsonl');
    const first = await acquireLock(path, 't');
    const refused = await acquireLock(path, 't').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect(refused).toMatchObject({ pid: process.pid, message: `session t is open in another Tiller (pid ${process.pid})` });
    expect(statSync(lockPathOf(path)).mode & 0o777).toBe(0o600);
    await first.release();
    const second = await acquireLock(path, 't');
    await second.release();
    expect(existsSync(lockPathOf(path))).toBe(false);
  });

  it('a stale lock (dead pid, or unreadable) is taken over', async () => {
    for (const content of ['999999999\n', 'garbage', '']) {
      const path = join(tempDir(), 'r.jsonl');
      writeFileSync(lockPathOf(path), content);
      const lock = await acquireLock(path, 't');
      expect(readFileSync(lockPathOf(path), 'utf8')).toBe(`${process.pid}\n`);
      await lock.release();
    }
  });

  it("a writer holding a lock taken over elsewhere does not remove the new holder's lock", async () => {
    const path = join(tempDir(), 'r.jsonl');
    const lock = await acquireLock(path, 't');
    writeFileSync(lockPathOf(path), '1\n');
    await lock.release();
    expect(readFileSync(lockPathOf(path), 'utf8')).toBe('1\n');
  });

  it('a resumed file is appended to, not rewritten', async () => {
    const home = tempDir();
    const threadId = newId();
    const path = rolloutPath(home, threadId, Date.now());
    const first = new FileRolloutWriter({ path, threadId });
    first.append(header(threadId));
    first.append(entry('one'));
    await first.close();
    const read = await readRollout({ kind: 'file', path });
    const lock = await acquireLock(path, threadId);
    const again = new FileRolloutWriter({ path, threadId, existing: { lock, size: read.tail.size } });
    again.append(entry('two'));
    await again.close();
    expect((await readRollout({ kind: 'file', path })).snapshot.history).toHaveLength(2);
  });
});
