/**
 * /review's picker and /findings in the real bin in a pty: the base-branch route lists the local
 * branches (not the current one) and reviews against the one picked; a finding picked with `f`
 * lands in the composer as a message to edit, not sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composerText, sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';
import { firstCommitRepo, git } from '../support/git-repo.js';

const start = sessionPerTest();

/** A repo on `feature` (one commit past `main`), with a `dev` branch too. */
function repo(): string {
  const dir = firstCommitRepo('tiller-review-picker-');
  git(dir, 'branch', 'dev');
  git(dir, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(dir, 'a.txt'), 'two\n');
  git(dir, 'commit', '-q', '-am', 'second');
  return dir;
}

const DOWN = '\x1b[B';

describe('/review picker', () => {
  it('reviews against a base branch picked from the local branches; a finding goes into the composer with f', async () => {
    const dir = repo();
    const session = await start({ cwd: dir });
    const findings = JSON.stringify({
      findings: [
        {
          title: '[P1] Value flipped',
          body: 'one became two.',
          confidence_score: 0.9,
          priority: 1,
          code_location: { absolute_file_path: join(dir, 'a.txt'), line_range: { start: 1, end: 2 } },
        },
        {
          title: '[P3] Second note',
          body: 'minor.',
          confidence_score: 0.4,
          priority: 3,
          code_location: { absolute_file_path: join(dir, 'b.txt'), line_range: { start: 4, end: 4 } },
        },
      ],
      overall_correctness: 'patch is incorrect',
      overall_explanation: 'The value changed.',
      overall_confidence_score: 0.8,
    });
    session.server.enqueue({ text: findings });
    await typeSlowly(session.pty, '/review');
    session.pty.write('\r');
    await session.pty.waitFor('Review against a base branch');
    session.pty.write(DOWN);
    session.pty.write('\r');
    // The branches but the current one (feature), sorted: dev, main.
    const list = await session.pty.waitFor('Select a base branch');
    await session.pty.waitFor('▸ dev');
    expect(list).not.toMatch(/^\s*(▸ )?feature\s*$/m);
    session.pty.write(DOWN);
    await session.pty.waitFor('▸ main');
    session.pty.write('\r');
    await session.pty.waitFor(' P3  Second note');
    const [request] = await waitForRequests(session, 1);
    expect(userTexts(request!).join('\n')).toContain("Review the code changes against the base branch 'main'.");

    await typeSlowly(session.pty, '/findings');
    session.pty.write('\r');
    await session.pty.waitFor('Review findings');
    session.pty.write(DOWN);
    await session.pty.waitFor(`▸ [P3] Second note — ${join(dir, 'b.txt')}:4`);
    session.pty.write('f');
    const screen = await session.pty.waitFor('Fix this review finding: [P3] Second note');
    expect(composerText(screen)).toContain(`At ${join(dir, 'b.txt')}:4`);
    expect(composerText(screen)).toContain('minor.');
    // Put in the composer, not sent.
    expect(session.server.requests).toHaveLength(1);
  });

  it("reviews the changes of this session: the agent's patch only, not the user's uncommitted edit", async () => {
    const dir = repo();
    writeFileSync(join(dir, 'mine.txt'), 'the user, uncommitted\n');
    const session = await start({ cwd: dir, args: ['-a', 'never', '-s', 'workspace-write'] });
    session.server.enqueue(
      { customToolCalls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+agent\n*** End Patch' }] },
      { text: 'Changed a.txt.' },
      { text: 'not json: the agent change looks fine' },
    );
    await typeSlowly(session.pty, 'change a');
    session.pty.write('\r');
    // The turn ends once its checkpoint after is recorded.
    await session.pty.waitFor((screen) => screen.includes('Changed a.txt.') && !screen.includes('esc to interrupt'));
    // The workspace the turn left is recorded just after it ends (nothing on screen says when): the user edits later.
    await session.pty.idle(500);
    writeFileSync(join(dir, 'mine.txt'), 'the user, edited again\n');
    await typeSlowly(session.pty, '/review');
    session.pty.write('\r');
    await session.pty.waitFor("5. Review the changes of this session (the agent's only)");
    session.pty.write('5');
    await session.pty.waitFor('the agent change looks fine');
    const requests = await waitForRequests(session, 3);
    const prompt = userTexts(requests[2]!).join('\n');
    expect(prompt).toContain('Review the code changes the agent made in this session.');
    expect(prompt).toContain('-two\n+agent');
    expect(prompt).not.toContain('mine.txt');
    expect(prompt).not.toContain('the user, ');
    expect(requests[2]!.headers['x-openai-subagent']).toBe('review');
  });

  it('Esc backs out of a stage to the menu; custom instructions typed there are what the review asks', async () => {
    const session = await start({ cwd: repo() });
    session.server.enqueue({ text: 'not json: all good' });
    await typeSlowly(session.pty, '/review');
    session.pty.write('\r');
    await session.pty.waitFor('Custom review instructions');
    session.pty.write('4');
    await session.pty.waitFor('enter to start the review');
    session.pty.write('\x1b');
    await session.pty.waitFor('▸ 4. Custom review instructions');
    session.pty.write('\r');
    await session.pty.waitFor('enter to start the review');
    session.pty.write('check the error paths');
    await session.pty.waitFor('› check the error paths');
    session.pty.write('\r');
    await session.pty.waitFor('all good');
    const [request] = await waitForRequests(session, 1);
    expect(userTexts(request!).join('\n')).toContain('check the error paths');
  });

  it('reviews a commit picked from the recent ones; y copies a finding through OSC 52', async () => {
    const dir = repo();
    const sha = git(dir, 'rev-parse', 'HEAD');
    const session = await start({ cwd: dir, env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
    const finding = {
      title: 'Off by one',
      body: 'the loop ends early.',
      confidence_score: 0.7,
      priority: 2,
      code_location: { absolute_file_path: join(dir, 'a.txt'), line_range: { start: 3, end: 5 } },
    };
    session.server.enqueue({
      text: JSON.stringify({
        findings: [finding],
        overall_correctness: 'x',
        overall_explanation: 'One issue.',
        overall_confidence_score: 0.5,
      }),
    });
    await typeSlowly(session.pty, '/review');
    session.pty.write('\r');
    await session.pty.waitFor('Review a commit');
    session.pty.write('3');
    // The recent commits, newest first, as short sha and subject.
    await session.pty.waitFor(`▸ ${sha.slice(0, 7)}  second`);
    session.pty.write('\r');
    await session.pty.waitFor('One issue.');
    const [request] = await waitForRequests(session, 1);
    expect(userTexts(request!).join('\n')).toContain(`commit ${sha} ("second")`);
    await typeSlowly(session.pty, '/findings');
    session.pty.write('\r');
    await session.pty.waitFor('Review findings');
    session.pty.write('y');
    await session.pty.waitFor('Copied the finding to the clipboard via the terminal (OSC 52).');
    const message = `Fix this review finding: Off by one\nAt ${join(dir, 'a.txt')}:3-5\n\nthe loop ends early.`;
    expect(session.pty.raw()).toContain(`\x1b]52;c;${Buffer.from(message).toString('base64')}\x07`);
    expect(session.server.requests).toHaveLength(1);
  });
});
