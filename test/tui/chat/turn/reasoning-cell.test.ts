/**
 * The model's reasoning summary in the TUI: streamed dim in the live area ("Thinking…" before any
 * text), then one dim line in the transcript with the hint that Ctrl+T shows all, whole in the pager,
 * and again on resume.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { turnsToCells } from '../../../../src/tui/chat/sessions/transcript-restore.js';
import { reasoningText } from '../../../../src/tui/chat/turn/live-output.js';
import { cellLines, liveReasoningLines, REASONING_EXPAND_HINT, reasoningLines } from '../../../../src/tui/components/lines.js';
import { createHarness, running } from '../harness.js';

const plain = new Chalk({ level: 0 });
const base = { threadId: 'thread-1', turnId: 'turn-1' };

describe('the reasoning cell', () => {
  it('streams into the live area, then becomes a transcript cell; a blank summary leaves none', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('item/started', { ...base, startedAtMs: 0, item: { type: 'reasoning', id: 'r1', summary: [], content: [] } });
    expect(h.store.getState().live.reasoning).toBe('');
    h.client.emit('item/reasoning/textDelta', { ...base, itemId: 'r1', delta: 'Reading the ' });
    h.client.emit('item/reasoning/textDelta', { ...base, itemId: 'r1', delta: 'tests first' });
    h.clock.advance(40);
    expect(h.store.getState().live.reasoning).toBe('Reading the tests first');
    h.client.emit('item/completed', {
      ...base,
      completedAtMs: 0,
      item: { type: 'reasoning', id: 'r1', summary: ['Reading the tests first'], content: [] },
    });
    expect(h.store.getState().live.reasoning).toBeNull();
    expect(h.cellTexts().at(-1)).toBe('thinking: Reading the tests first');
    h.client.emit('item/started', { ...base, startedAtMs: 0, item: { type: 'reasoning', id: 'r2', summary: [], content: [] } });
    h.client.emit('item/completed', { ...base, completedAtMs: 0, item: { type: 'reasoning', id: 'r2', summary: ['  '], content: [] } });
    expect(h.cellTexts().filter((t) => t.startsWith('thinking:'))).toHaveLength(1);
  });

  it('a turn that ends mid-thought keeps what streamed', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('item/started', { ...base, startedAtMs: 0, item: { type: 'reasoning', id: 'r1', summary: [], content: [] } });
    h.client.emit('item/reasoning/textDelta', { ...base, itemId: 'r1', delta: 'half a thought' });
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.cellTexts()).toContain('thinking: half a thought');
  });

  it('one dim line in the transcript, the first line cut to the width; whole in the pager', () => {
    const text = '**Planning** the change to the parser so it keeps CRLF\n\nThen the tests.';
    const [row] = reasoningLines(text, 40, plain);
    expect(row!.startsWith('• ')).toBe(true);
    expect(row).toContain(`(${REASONING_EXPAND_HINT})`);
    expect(row!.length).toBeLessThanOrEqual(40);
    expect(reasoningLines('short', 40, plain)).toEqual(['• short']);
    const whole = cellLines({ kind: 'reasoning', id: 1, text }, 40, plain, true);
    expect(whole.join('\n')).toContain('Then the tests.');
    expect(liveReasoningLines('', 40, plain)).toEqual(['', '• Thinking…']);
    expect(liveReasoningLines('a\nb\nc\nd\ne', 40, plain)).toEqual(['', '  c', '  d', '  e']);
  });

  it('the summary parts, else what streamed; restored on resume', () => {
    expect(reasoningText(['one', ' ', 'two'], 'ignored')).toBe('one\n\ntwo');
    expect(reasoningText([], ' raw text ')).toBe('raw text');
    const cells = turnsToCells([
      {
        id: 't',
        items: [{ type: 'reasoning', id: 'r', summary: ['Thought it through'], content: [] }],
        itemsView: 'full',
        status: 'completed',
        error: null,
        startedAt: 0,
        completedAt: 1,
        durationMs: 1,
      },
    ] as never);
    expect(cells).toContainEqual({ kind: 'reasoning', text: 'Thought it through' });
  });
});
