/**
 * Enter and Tab on a draft (docs/codex-parity.md#composer): a bare known `/command` is dispatched,
 * a newline inside a paste burst stays a newline, else the draft is prepared (submission.ts) and
 * comes out submitted, with the key it was made with, or queued, with how to run it when dequeued.
 */
import { withoutCommandToken } from './draft-command.js';
import { clearDraft } from './draft.js';
import { recordLocalSubmission } from './history.js';
import { flushBurstBeforeKey, newlineIntoBurst } from './input.js';
import { extendWindow, newlineShouldInsertInsteadOfSubmit } from './paste-burst.js';
import { findCommand, isDraftCommand, parseSlash, takesArgs } from './slash-commands.js';
import { canonicalText, commitTextArea, type ComposerState } from './state.js';
import { NONE, step, withHistory, type Step } from './step.js';
import { prepareSubmission } from './submission.js';
import { insertText } from './textarea.js';
import type { ComposerEffect, SubmitMode } from './types.js';

/** `token`: the typed `/name` (or its line), all a draft command takes out of the draft. */
export function dispatchCommand(state: ComposerState, name: string, token: { start: number; end: number }, now: number): Step {
  const cmd = findCommand(name);
  if (cmd === undefined) return step(state);
  if (state.taskRunning && !cmd.availableDuringTask) {
    return step(state, NONE, [{ type: 'error', text: `'/${name}' is disabled while a task is in progress.` }]);
  }
  if (isDraftCommand(name)) {
    const kept = withoutCommandToken(state, token.start, token.end, now);
    return { ...step(kept, { type: 'command', command: name }), skipUndo: true, keepsDraft: true };
  }
  const entry = { text: `/${name}`, textElements: [], attachments: [], pendingPastes: [] };
  const recorded = name === 'clear' ? state : withHistory(state, recordLocalSubmission(state.history, entry));
  return step(clearDraft(recorded), { type: 'command', command: name });
}

/** `/rename NAME`: the command gets the words after it; the whole line goes into the history. */
function dispatchWithArgs(state: ComposerState, name: string, args: string): Step {
  const cmd = findCommand(name)!;
  if (state.taskRunning && !cmd.availableDuringTask) {
    return step(state, NONE, [{ type: 'error', text: `'/${name}' is disabled while a task is in progress.` }]);
  }
  const entry = { text: `/${name} ${args}`, textElements: [], attachments: [], pendingPastes: [] };
  return step(clearDraft(withHistory(state, recordLocalSubmission(state.history, entry))), { type: 'command', command: name, args });
}

/** `queue`: Tab while a turn runs (a queued follow-up); `mode`: the key of a submission. */
export function handleSubmission(state0: ComposerState, queue: boolean, mode: SubmitMode, now: number): Step {
  let state = state0;
  const text = canonicalText(state);
  const firstLine = text.split('\n', 1)[0] ?? '';

  if (!queue) {
    if (!state.bashMode) {
      const bare = /^\/(\S+)$/u.exec(firstLine.trimEnd());
      const cmd = bare === null ? undefined : findCommand(bare[1]!);
      // A draft below the command line stays for a draft command (/inspect), without that line.
      if (cmd !== undefined) return dispatchCommand(state, cmd.name, { start: 0, end: Math.min(text.length, firstLine.length + 1) }, now);
      const withArgs = parseSlash(text.trim());
      if (withArgs !== null && takesArgs(withArgs.name)) return dispatchWithArgs(state, withArgs.name, withArgs.rest);
    }
    const slashContext = !state.bashMode && (state.popup?.kind === 'command' || firstLine.startsWith('/'));
    if (!slashContext && !state.disablePasteBurst) {
      // The user may have meant to send: the host says once why Enter did not (BURST_ENTER_HINT).
      const said: ComposerEffect[] = mode === 'enter' ? [{ type: 'burstNewline' }] : [];
      const joined = newlineIntoBurst(state, now);
      if (joined !== null) return step(joined, NONE, said);
      if (newlineShouldInsertInsteadOfSubmit(state.burst, now)) {
        state = insertTypedNewline(state);
        return step({ ...state, burst: extendWindow(state.burst, now) }, NONE, said);
      }
    }
  }

  state = flushBurstBeforeKey(state);
  const deferSlash = queue && !state.bashMode && canonicalText(state).startsWith('/');
  const prepared = prepareSubmission(state, { validateSlash: !deferSlash });
  if (!prepared.ok) return step(state, NONE, prepared.effects);
  const { submission, historyEntry } = prepared;
  state = withHistory(state, recordLocalSubmission(state.history, historyEntry));
  const effects: ComposerEffect[] = [{ type: 'persistHistory', text: submission.text }];
  const cleared = clearDraft(state);
  if (!queue) return step(cleared, { type: 'submitted', mode, ...submission }, effects);
  const action = deferSlash ? 'parseSlash' : submission.text.startsWith('!') ? 'runShell' : 'plain';
  return step(cleared, { type: 'queued', action, ...submission }, effects);
}

function insertTypedNewline(state: ComposerState): ComposerState {
  return commitTextArea(state, insertText(state.ta, '\n'));
}
