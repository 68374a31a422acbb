/** `tiller exec resume <id|--last> PROMPT`: the real bin continues a recorded thread with its whole history. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExecArgs } from '../../src/runtime/cli-args.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { inputTexts, tempDir } from './support/harness.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

describe('tiller exec resume', () => {
  it('by id and with --last (of this directory), text and --json, the whole history sent', async () => {
    const env = fakeServerEnv(fake);
    const cwd = tempDir();
    fake.enqueue({ text: 'first answer' });
    const first = spawnTiller(['exec', '--skip-git-repo-check', '--json', 'first question'], env, cwd);
    expect(await first.exit).toBe(0);
    const threadId = jsonEvents(first.lines)[0]!.thread_id as string;

    fake.enqueue({ text: 'second answer' });
    const byId = spawnTiller(['exec', '--skip-git-repo-check', 'resume', threadId, 'second question'], env, cwd);
    expect(await byId.exit).toBe(0);
    expect(byId.lines).toEqual(['second answer']);
    expect(inputTexts(fake.requests[1]!.body)).toEqual(['first question', 'first answer', 'second question']);

    // Another directory's newer thread is not "the last" here.
    fake.enqueue({ text: 'elsewhere' });
    expect(await spawnTiller(['exec', '--skip-git-repo-check', 'unrelated'], env, tempDir()).exit).toBe(0);

    fake.enqueue({ text: 'third answer' });
    const last = spawnTiller(['exec', '--skip-git-repo-check', '--json', 'resume', '--last', 'third question'], env, cwd);
    expect(await last.exit).toBe(0);
    const events = jsonEvents(last.lines);
    expect(events[0]).toEqual({ type: 'thread.started', thread_id: threadId });
    expect(events.at(-1)!.type).toBe('turn.completed');
    expect(inputTexts(fake.requests[3]!.body)).toEqual([
      'first question',
      'first answer',
      'second question',
      'second answer',
      'third question',
    ]);
  });

  it('an unknown id: "no session with id" on stderr, exit 1, no request; --last with none: exit 1', async () => {
    const env = fakeServerEnv(fake);
    const id = '0190a6c4-0000-7000-8000-000000000000';
    const unknown = spawnTiller(['exec', '--skip-git-repo-check', 'resume', id, 'hello'], env, tempDir());
    expect(await unknown.exit).toBe(1);
    expect(unknown.stderr()).toContain(`tiller: no session with id ${id}\n`);
    const json = spawnTiller(['exec', '--skip-git-repo-check', '--json', 'resume', id, 'hello'], env, tempDir());
    expect(await json.exit).toBe(1);
    expect(json.stderr()).toContain(`tiller: no session with id ${id}\n`);
    const none = spawnTiller(['exec', '--skip-git-repo-check', 'resume', '--last', 'hello'], env, tempDir());
    expect(await none.exit).toBe(1);
    expect(none.stderr()).toContain('tiller: no session to resume in');
    expect(fake.requests).toHaveLength(0);
  });

  it('parses: resume ID PROMPT, resume --last PROMPT, flags anywhere; `--` makes "resume" the prompt', () => {
    expect(parseExecArgs(['resume', 'abc', 'do', 'it'])).toMatchObject({ resume: { threadId: 'abc' }, prompt: 'do it' });
    expect(parseExecArgs(['--json', 'resume', '--last', '-m', 'x', 'go'])).toMatchObject({
      resume: { last: true },
      prompt: 'go',
      model: 'x',
      json: true,
    });
    expect(parseExecArgs(['resume', '--last'])).toMatchObject({ resume: { last: true }, prompt: null });
    expect(parseExecArgs(['--', 'resume', 'this'])).toMatchObject({ prompt: 'resume this' });
    expect(parseExecArgs(['--', 'resume'])).not.toHaveProperty('resume');
    expect(parseExecArgs(['resume'])).toEqual({ error: "resume needs a session id or --last. Try 'tiller exec --help'." });
    expect(parseExecArgs(['--last', 'x'])).toEqual({ error: "--last goes with 'tiller exec resume'. Try 'tiller exec --help'." });
  });
});
