/** The session index behind /rename and `tiller resume NAME`, and the last line /ps shows. */
import { appendFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputTail } from '../../src/runtime/commands/sessions/output-tail.js';
import { appendThreadName, checkThreadName, readThreadNames, threadIdByName } from '../../src/runtime/threads/names.js';
import { tempDir } from './support/harness.js';

describe('session names', () => {
  it('checks a name: trimmed, inner whitespace one space, not empty, at most 100 characters', () => {
    expect(checkThreadName('  a \n b ')).toEqual({ ok: true, name: 'a b' });
    expect(checkThreadName(' ')).toEqual({ ok: false, message: 'thread name must not be empty' });
    expect(checkThreadName('x'.repeat(101))).toEqual({ ok: false, message: 'thread name must be at most 100 characters' });
  });

  it('the last name of an id wins; a torn line is skipped; the file is 0600 in a 0700 home', async () => {
    const home = join(tempDir(), 'home');
    await appendThreadName(home, 'AAA', 'first', 0);
    await appendThreadName(home, 'bbb', 'other', 1);
    await appendThreadName(home, 'aaa', 'second', 2);
    appendFileSync(join(home, 'session_index.jsonl'), '{"id":"ccc","thread_na');
    const names = await readThreadNames(home);
    expect([...names]).toEqual([
      ['bbb', 'other'],
      ['aaa', 'second'],
    ]);
    expect(statSync(join(home, 'session_index.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(await readThreadNames(join(home, 'none'))).toEqual(new Map());
  });

  it('finds the session most recently given a name, exact before case-insensitive', () => {
    const names = new Map([
      ['old', 'Deploy'],
      ['mid', 'deploy'],
      ['new', 'DEPLOY'],
    ]);
    expect(threadIdByName(names, 'deploy')).toBe('mid');
    expect(threadIdByName(names, 'Deploy')).toBe('old');
    expect(threadIdByName(names, 'dePloy')).toBe('new');
    expect(threadIdByName(names, 'ship')).toBeNull();
  });
});

describe('OutputTail', () => {
  it('keeps the line being written, else the last non-empty complete one', () => {
    const tail = new OutputTail();
    expect(tail.line).toBe('');
    tail.push('one\ntw');
    expect(tail.line).toBe('tw');
    tail.push('o\n\n');
    expect(tail.line).toBe('two');
    tail.push('\r\nthree\r\n  ');
    expect(tail.line).toBe('three');
  });
});
