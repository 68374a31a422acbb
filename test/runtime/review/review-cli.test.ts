/**
 * `tiller review` end to end: the real bin against the fake Responses server, on each target. The
 * model gets the review brief and the target's prompt, runs git through exec_command, and answers
 * with findings JSON; stdout is Codex's layout.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../../support/fake-responses-server.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from '../support/spawn.js';
import { firstCommitRepo, git } from '../../support/git-repo.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

const repo = (): string => firstCommitRepo('tiller-review-');

function findingsJson(path: string): string {
  return JSON.stringify({
    findings: [
      {
        title: '[P1] Wrong value',
        body: 'The value changed.\nIt breaks callers.',
        confidence_score: 0.9,
        priority: 1,
        code_location: { absolute_file_path: path, line_range: { start: 1, end: 2 } },
      },
      {
        title: '[P3] Stray file',
        body: 'Untracked.',
        confidence_score: 0.5,
        priority: 3,
        code_location: { absolute_file_path: path, line_range: { start: 4, end: 4 } },
      },
    ],
    overall_correctness: 'patch is incorrect',
    overall_explanation: 'The change breaks a caller.',
    overall_confidence_score: 0.8,
  });
}

/** The model runs `command`, then answers `answer`; returns the output its call got back. */
function script(command: string, answer: string): void {
  fake.enqueue({ functionCall: { name: 'exec_command', arguments: { cmd: command }, callId: 'c1' } }, { text: answer });
}

function callOutput(): string {
  const input = fake.requests[1]!.body.input as Array<{ type: string; output?: string }>;
  return input.find((item) => item.type === 'function_call_output')!.output!;
}

function inputTexts(n: number): Array<{ role: string; text: string }> {
  const input = fake.requests[n]!.body.input as Array<{ type: string; role?: string; content?: Array<{ text?: string }> }>;
  return input
    .filter((i) => i.type === 'message')
    .map((i) => ({ role: i.role!, text: (i.content ?? []).map((c) => c.text ?? '').join('') }));
}

async function review(cwd: string, args: string[]) {
  const child = spawnTiller(['review', '-m', 'gpt-5.5', ...args], fakeServerEnv(fake), cwd);
  const code = await child.exit;
  return { code, stdout: `${child.lines.join('\n')}\n`, stderr: child.stderr() };
}

describe('tiller review', () => {
  it('reviews uncommitted changes, a modified and an untracked file, and prints Codex layout', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    writeFileSync(join(dir, 'new.txt'), 'fresh\n');
    script('git status --porcelain', findingsJson(join(dir, 'a.txt')));
    const { code, stdout } = await review(dir, ['--uncommitted']);
    expect(code).toBe(0);
    const [brief, ...rest] = inputTexts(0);
    expect(brief).toMatchObject({ role: 'developer' });
    expect(brief!.text).toMatch(/^# Reviewing a change/);
    expect(brief!.text).toContain('"overall_correctness"');
    expect(rest.at(-1)).toEqual({
      role: 'user',
      text: 'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.',
    });
    // Both changes reach the model through git: the untracked file counts.
    expect(callOutput()).toContain(' M a.txt');
    expect(callOutput()).toContain('?? new.txt');
    const path = join(dir, 'a.txt');
    expect(stdout).toBe(
      `The change breaks a caller.\n\nFull review comments:\n\n- [P1] Wrong value — ${path}:1-2\n  The value changed.\n  It breaks callers.\n\n- [P3] Stray file — ${path}:4-4\n  Untracked.\n`,
    );
  });

  it('reviews a branch against main from their merge base', async () => {
    const dir = repo();
    const base = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'a.txt'), 'feature\n');
    git(dir, 'commit', '-q', '-am', 'feature work');
    script(`git diff ${base}`, findingsJson(join(dir, 'a.txt')));
    const { code, stdout } = await review(dir, ['--base', 'main']);
    expect(code).toBe(0);
    expect(inputTexts(0).at(-1)!.text).toBe(
      `Review the code changes against the base branch 'main'. The merge base commit for this comparison is ${base}. Run \`git diff ${base}\` to inspect the changes relative to main. Provide prioritized, actionable findings.`,
    );
    expect(callOutput()).toContain('+feature');
    expect(stdout).toContain('Full review comments:');
  });

  it('reviews a commit, with its title; --json prints the structured review', async () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'committed\n');
    git(dir, 'commit', '-q', '-am', 'change a');
    const sha = git(dir, 'rev-parse', 'HEAD');
    script(`git show ${sha}`, findingsJson(join(dir, 'a.txt')));
    const { code, stdout } = await review(dir, ['--commit', sha, '--title', 'change a', '--json']);
    expect(code).toBe(0);
    expect(inputTexts(0).at(-1)!.text).toBe(
      `Review the code changes introduced by commit ${sha} ("change a"). Provide prioritized, actionable findings.`,
    );
    expect(callOutput()).toContain('+committed');
    const out = JSON.parse(stdout);
    expect(out.overall_correctness).toBe('patch is incorrect');
    expect(out.findings.map((f: { title: string }) => f.title)).toEqual(['[P1] Wrong value', '[P3] Stray file']);
    expect(out.findings[0].code_location).toEqual({ absolute_file_path: join(dir, 'a.txt'), line_range: { start: 1, end: 2 } });
  });

  it('prints an answer that is not JSON as it came, exit 0; custom instructions go verbatim', async () => {
    const dir = repo();
    fake.enqueue({ text: 'Nothing to review here, sorry.' });
    const { code, stdout } = await review(dir, ['focus on the README']);
    expect(code).toBe(0);
    expect(stdout).toBe('Nothing to review here, sorry.\n');
    expect(inputTexts(0).at(-1)!.text).toBe('focus on the README');
  });

  it("--session ID reviews only what the agent changed in that session, not the user's edit beside it", async () => {
    const dir = repo();
    writeFileSync(join(dir, 'user.txt'), 'the user, uncommitted\n');
    const env = fakeServerEnv(fake);
    fake.enqueue(
      { customToolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+agent\n*** End Patch' }] },
      { text: 'done' },
    );
    const exec = spawnTiller(['exec', '--json', '--full-auto', '-m', 'gpt-5.5', 'change a'], env, dir);
    expect(await exec.exit).toBe(0);
    const threadId = jsonEvents(exec.lines)[0]!.thread_id as string;
    writeFileSync(join(dir, 'a.txt'), 'agent\nand the user after\n');
    fake.enqueue({ text: findingsJson(join(dir, 'a.txt')) });
    const child = spawnTiller(['review', '-m', 'gpt-5.5', '--session', threadId], env, dir);
    expect(await child.exit).toBe(0);
    const prompt = inputTexts(2).at(-1)!.text;
    expect(prompt).toContain('-one\n+agent');
    expect(prompt).not.toContain('and the user after');
    expect(prompt).not.toContain('user.txt');
    expect(fake.requests[2]!.headers['x-openai-subagent']).toBe('review');
    expect(`${child.lines.join('\n')}\n`).toContain('Full review comments:');

    const missing = spawnTiller(['review', '--session', 'no-such-session'], env, dir);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr()).toContain('no session no-such-session');
  });

  it('refuses conflicting targets with a usage error', async () => {
    const dir = repo();
    const { code, stderr } = await review(dir, ['--uncommitted', '--base', 'main']);
    expect(code).toBe(2);
    expect(stderr).toContain('--uncommitted, --base, --commit and --session exclude each other');
    expect(fake.requests).toHaveLength(0);
  });
});
