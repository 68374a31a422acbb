/**
 * A recorded thread's turns (thread/resume, thread/fork) as transcript cells, so a resumed thread
 * looks as it did: prompts with their attachment labels, answers as markdown, commands, MCP calls,
 * compactions and how a turn ended. Only the last MAX_RESTORED_TURNS turns are shown (the model
 * still has them all), so a long thread opens as fast as a short one. Pure.
 */
import { parseRenderedReview } from '../review/rendered-review.js';
import { basename } from 'node:path';
import type { Turn, ThreadItem, V2UserInput } from '../../../protocol/api.js';
import type { TextElement } from '../../../protocol/user-input.js';
import { displayCommand } from '../../../protocol/shell-command-line.js';
import { byteLength } from '../../../protocol/utf8.js';
import { attachmentLabel } from '../../composer/state.js';
import type { NewCell } from '../../store.js';
import { mcpCallCell } from '../commands/mcp.js';
import { reasoningText } from '../turn/live-output.js';
import { patchCell } from '../turn/patch-cell.js';

export const MAX_RESTORED_TURNS = 100;

export const INTERRUPTED_MESSAGE =
  'Conversation interrupted - tell the model what to do differently. Something went wrong? Hit `/feedback` to report the issue.';
export const UNFINISHED_TURN_MESSAGE = 'This turn did not finish (the session ended while it ran).';
export const COMPACTED_MESSAGE = 'Context compacted.';

export function earlierTurnsText(count: number): string {
  return count === 1 ? '1 earlier turn is not shown.' : `${count} earlier turns are not shown.`;
}
const EARLIER_TURNS_HINT = 'The model still has the whole conversation.';

/** The cells of the last `maxTurns` turns, after a note of how many earlier ones are left out. */
export function turnsToCells(turns: readonly Turn[], maxTurns = MAX_RESTORED_TURNS): NewCell[] {
  const hidden = Math.max(0, turns.length - maxTurns);
  const cells: NewCell[] = hidden > 0 ? [{ kind: 'info', text: earlierTurnsText(hidden), hint: EARLIER_TURNS_HINT }] : [];
  for (const turn of turns.slice(hidden)) cells.push(...turnCells(turn));
  return cells;
}

/** One turn: its items in order, then how it ended when it did not complete. */
export function turnCells(turn: Turn): NewCell[] {
  const cells: NewCell[] = [];
  let prompted = false;
  let reviewText: string | null = null;
  for (const item of turn.items) {
    // The agentMessage after a review repeats the review the findings cell already shows.
    if (item.type === 'agentMessage' && item.text === reviewText) continue;
    if (item.type === 'exitedReviewMode') reviewText = item.review;
    const cell = itemCell(item, prompted ? null : turn.id);
    if (item.type === 'userMessage') prompted = true;
    if (cell !== null) cells.push(cell);
  }
  if (turn.status === 'interrupted') cells.push({ kind: 'error', text: INTERRUPTED_MESSAGE });
  else if (turn.status === 'failed') cells.push({ kind: 'error', text: turn.error?.message ?? 'The turn failed.' });
  else if (turn.status === 'inProgress') cells.push({ kind: 'warning', text: UNFINISHED_TURN_MESSAGE });
  return cells;
}

/** `turnId`: set on the turn's first prompt only (a later one was steered in). */
function itemCell(item: ThreadItem, turnId: string | null): NewCell | null {
  switch (item.type) {
    case 'userMessage':
      return promptCell(item.content, turnId);
    case 'agentMessage':
      return item.text === '' ? null : { kind: 'agent', markdown: item.text };
    case 'commandExecution':
      return {
        kind: 'command',
        command: displayCommand(item.command),
        output: item.aggregatedOutput ?? '',
        exitCode: item.exitCode,
        durationMs: item.durationMs,
        status: item.status === 'inProgress' ? 'interrupted' : item.status,
        source: 'model',
      };
    case 'mcpToolCall':
      return mcpCallCell(item);
    case 'fileChange':
      return patchCell(item, process.cwd());
    case 'contextCompaction':
      return { kind: 'info', text: COMPACTED_MESSAGE };
    case 'enteredReviewMode':
      return { kind: 'info', text: `Code review started: ${item.review}` };
    case 'exitedReviewMode':
      return { kind: 'review', ...parseRenderedReview(item.review) };
    case 'imageView':
      return { kind: 'imageView', path: item.path };
    case 'webSearch':
      return { kind: 'webSearch', query: item.query };
    case 'reasoning': {
      const text = reasoningText(item.summary, item.content.join(''));
      return text === '' ? null : { kind: 'reasoning', text };
    }
  }
}

/** An image or audio input: its kind, and its file (null: sent by URL or file id). */
export function mediaOf(input: V2UserInput): { kind: 'image' | 'audio'; path: string | null } | null {
  switch (input.type) {
    case 'image':
      return { kind: 'image', path: null };
    case 'localImage':
      return { kind: 'image', path: input.path };
    case 'audio':
      return { kind: 'audio', path: null };
    case 'localAudio':
      return { kind: 'audio', path: input.path };
    default:
      return null;
  }
}

/** A recorded prompt as the cell it was when sent: the text items joined, media as `[Image #1] a.png` labels. */
export function promptCell(content: readonly V2UserInput[], turnId: string | null): NewCell {
  const { text, textElements } = joinedText(content);
  const counts = { image: 0, audio: 0 };
  const attachmentLabels: string[] = [];
  for (const input of content) {
    const media = mediaOf(input);
    if (media === null) continue;
    const label = attachmentLabel(media.kind, ++counts[media.kind]);
    attachmentLabels.push(media.path !== null ? `${label} ${basename(media.path)}` : label);
  }
  return { kind: 'user', text, textElements, attachmentLabels, turnId };
}

/** The text items joined with nothing between them, their elements shifted to index the whole. */
export function joinedText(content: readonly V2UserInput[]): { text: string; textElements: TextElement[] } {
  let text = '';
  const textElements: TextElement[] = [];
  for (const input of content) {
    if (input.type !== 'text') continue;
    const offset = byteLength(text);
    for (const el of input.text_elements) {
      textElements.push({
        byte_range: { start: offset + el.byteRange.start, end: offset + el.byteRange.end },
        ...(el.placeholder !== null ? { placeholder: el.placeholder } : {}),
      });
    }
    text += input.text;
  }
  return { text, textElements };
}

/** The first prompt of each turn (what backtrack puts back into the composer), by turn id. */
export function turnPrompts(turns: readonly Turn[]): Map<string, V2UserInput[]> {
  const out = new Map<string, V2UserInput[]>();
  for (const turn of turns) {
    const prompt = turn.items.find((item) => item.type === 'userMessage');
    if (prompt?.type === 'userMessage') out.set(turn.id, prompt.content);
  }
  return out;
}
