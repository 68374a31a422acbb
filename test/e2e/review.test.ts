/**
 * /review in the real bin in a pty: the review turn of the uncommitted changes, its rendered
 * findings on screen, and a message typed during it queued with the reason shown, then sent once
 * after the review ended.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';
import { firstCommitRepo } from '../support/git-repo.js';

const start = sessionPerTest();

function repo(): string {
  const dir = firstCommitRepo('tiller-review-tui-');
  writeFileSync(join(dir, 'a.txt'), 'two\n');
  return dir;
}

describe('/review', () => {
  it('reviews the uncommitted changes; a message typed meanwhile waits, then goes once', async () => {
    const dir = repo();
    const session = await start({ cwd: dir });
    const gate = session.server.gate();
    const findings = JSON.stringify({
      findings: [
        {
          title: '[P1] Value flipped',
          body: 'one became two.',
          confidence_score: 0.9,
          priority: 1,
          code_location: { absolute_file_path: join(dir, 'a.txt'), line_range: { start: 1, end: 1 } },
        },
      ],
      overall_correctness: 'patch is incorrect',
      overall_explanation: 'The value changed.',
      overall_confidence_score: 0.8,
    });
    session.server.enqueue({ text: findings, hold: { gate } }, { text: 'noted' });
    await typeSlowly(session.pty, '/review');
    session.pty.write('\r');
    // The picker's first row: the uncommitted changes.
    await session.pty.waitFor('Review uncommitted changes');
    session.pty.write('\r');
    await gate.reached();
    await typeSlowly(session.pty, 'after review');
    session.pty.write('\r');
    await session.pty.waitFor('review turns cannot be steered: queued');
    gate.release();
    // The findings cell: the badge, the title without its tag, file:line, the body; the rendered text is not repeated.
    await session.pty.waitFor(' P1  Value flipped');
    const screen = await session.pty.waitFor('noted');
    expect(screen).toContain('The value changed.');
    expect(screen).toContain(`${join(dir, 'a.txt')}:1`);
    expect(screen).toContain('one became two.');
    expect(screen).not.toContain('Review comment:');
    const requests = await waitForRequests(session, 2);
    expect(userTexts(requests[0]!)).toEqual([
      'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.',
    ]);
    // The follow-up is a turn of its own, after the review, and sent once.
    expect(userTexts(requests[1]!).filter((t) => t === 'after review')).toHaveLength(1);
    expect(session.server.requests).toHaveLength(2);
  });
});
