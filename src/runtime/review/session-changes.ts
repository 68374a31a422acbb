/**
 * Tiller's review target "the changes of this session" (`tiller/sessionChanges`): exactly what the
 * agent changed, from its turns' checkpoints (runtime/checkpoints), not the workspace's state, so
 * the user's own edits around it stay out. Turns that follow each other with nothing changed in
 * between make one diff; where the workspace changed between two turns (the user edited), each
 * side keeps its own, so the user's edit is never shown as the agent's.
 */
import type { TillerTurnCheckpoint } from '../../protocol/checkpoints.js';
import { CheckpointStore } from '../checkpoints/store.js';
import { findRollout } from '../rollout/paths.js';
import { readRolloutDeferred } from '../rollout/reader.js';

/** The prompt's diff is cut here; the model can still read the files. */
const MAX_PATCH_CHARS = 200 * 1024;

export const NO_SESSION_CHANGES = 'the agent has not changed any files in this session (no checkpointed turn wrote any)';

interface Span {
  workspace: string;
  from: string;
  to: string;
}

/** The agent's changes as a unified diff (paths relative to the workspace); '' when it changed nothing. */
export async function sessionChangesPatch(home: string, checkpoints: readonly TillerTurnCheckpoint[]): Promise<string> {
  const stores = new Map<string, CheckpointStore>();
  const store = (workspace: string): CheckpointStore => {
    let found = stores.get(workspace);
    if (found === undefined) stores.set(workspace, (found = new CheckpointStore(home, workspace)));
    return found;
  };
  const spans: Span[] = [];
  for (const c of checkpoints) {
    if (c.before === null || c.after === null) continue;
    const last = spans.at(-1);
    // The next turn started from where the last one left the workspace: one span.
    if (last !== undefined && last.workspace === c.workspace && (await store(c.workspace).changes(last.to, c.before)).length === 0) {
      last.to = c.after;
    } else spans.push({ workspace: c.workspace, from: c.before, to: c.after });
  }
  const patches: string[] = [];
  for (const span of spans) {
    const patch = await store(span.workspace).patch(span.from, span.to);
    if (patch.trim() !== '') patches.push(patch.endsWith('\n') ? patch : `${patch}\n`);
  }
  const text = patches.join('');
  return text.length <= MAX_PATCH_CHARS
    ? text
    : `${text.slice(0, MAX_PATCH_CHARS)}\n[… ${text.length - MAX_PATCH_CHARS} characters not shown …]\n`;
}

/** A saved session's checkpoints (its rollout's), for `tiller review --session ID`; null: no such session. */
export async function savedSessionCheckpoints(home: string, threadId: string): Promise<TillerTurnCheckpoint[] | null> {
  const path = await findRollout(home, threadId);
  if (path === null) return null;
  return (await readRolloutDeferred(path)).snapshot.checkpoints;
}

export function sessionChangesPrompt(patch: string): string {
  return [
    "Review the code changes the agent made in this session. They are the unified diff below, from the checkpoints taken around its turns; other changes in the workspace are the user's own and are not part of this review. Read the files for context as needed. Provide prioritized, actionable findings.",
    '',
    '```diff',
    patch.trimEnd(),
    '```',
  ].join('\n');
}
