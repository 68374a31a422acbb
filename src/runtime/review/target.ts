/**
 * What a review looks at, told to the model the way Codex tells it: the prompt names the target and
 * the git command that shows it; the model runs git itself (no diff is sent). For a base branch the
 * merge base is found first, so the model diffs against exactly what would be merged.
 */
import { execFile } from 'node:child_process';
import type { CodexReviewTarget, ReviewTarget } from '../../protocol/client-requests.js';

export const UNCOMMITTED_PROMPT =
  'Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.';

/** The short name of a review, as Codex's `enteredReviewMode` item and `/review` show it. */
export function reviewHint(target: ReviewTarget): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return 'current changes';
    case 'baseBranch':
      return `changes against '${target.branch}'`;
    case 'commit': {
      const short = target.sha.slice(0, 7);
      return target.title ? `commit ${short}: ${target.title}` : `commit ${short}`;
    }
    case 'custom':
      return target.instructions.trim();
    case 'tiller/sessionChanges':
      return 'changes of this session';
  }
}

/** Why a target cannot be reviewed (as Codex refuses it), or null. */
export function reviewTargetProblem(target: ReviewTarget): string | null {
  if (target.type === 'custom' && target.instructions.trim() === '') return 'Review prompt cannot be empty';
  if (target.type === 'baseBranch' && target.branch.trim() === '') return 'base branch must not be empty';
  if (target.type === 'commit' && target.sha.trim() === '') return 'commit sha must not be empty';
  return null;
}

/** The prompt for `target`; `mergeBase` is the base branch's merge base with HEAD, when known. */
export function reviewPrompt(target: CodexReviewTarget, mergeBase: string | null): string {
  switch (target.type) {
    case 'uncommittedChanges':
      return UNCOMMITTED_PROMPT;
    case 'baseBranch': {
      const branch = target.branch;
      if (mergeBase !== null) {
        return `Review the code changes against the base branch '${branch}'. The merge base commit for this comparison is ${mergeBase}. Run \`git diff ${mergeBase}\` to inspect the changes relative to ${branch}. Provide prioritized, actionable findings.`;
      }
      return `Review the code changes against the base branch '${branch}'. Start by finding the merge diff between the current branch and ${branch}'s upstream e.g. (\`git merge-base HEAD "$(git rev-parse --abbrev-ref "${branch}@{upstream}")"\`), then run \`git diff\` against that SHA to see what changes we would merge into the ${branch} branch. Provide prioritized, actionable findings.`;
    }
    case 'commit':
      return target.title
        ? `Review the code changes introduced by commit ${target.sha} ("${target.title}"). Provide prioritized, actionable findings.`
        : `Review the code changes introduced by commit ${target.sha}. Provide prioritized, actionable findings.`;
    case 'custom':
      return target.instructions.trim();
  }
}

export function git(cwd: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd, timeout: 10_000 }, (error, stdout) => resolve(error ? null : stdout.trim()));
  });
}

/** The merge base of HEAD and `branch` (its upstream first, as Codex prefers), or null outside git. */
export async function mergeBaseWith(cwd: string, branch: string): Promise<string | null> {
  const upstream = await git(cwd, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', `${branch}@{upstream}`]);
  for (const ref of upstream ? [upstream, branch] : [branch]) {
    const base = await git(cwd, ['merge-base', 'HEAD', ref]);
    if (base) return base;
  }
  return null;
}

/** The prompt for `target` in `cwd`, with the merge base looked up for a base branch. */
export async function resolveReviewPrompt(target: CodexReviewTarget, cwd: string): Promise<string> {
  return reviewPrompt(target, target.type === 'baseBranch' ? await mergeBaseWith(cwd, target.branch) : null);
}
