/** The pure pieces of the waiting-message list: its keys, its updaters, its rows and the receipt text. */
import { describe, expect, it } from 'vitest';
import { key } from '../../../../src/tui/keys/types.js';
import { pendingKey } from '../../../../src/tui/chat/pending/pending-keys.js';
import { isSendNowKey } from '../../../../src/tui/composer/editor-keys.js';
import { findPending, moveToQueueFront, neighbourId, reorderPending, waitingInOrder } from '../../../../src/tui/chat/pending/pending.js';
import { pendingPreviewLines } from '../../../../src/tui/chat/pending/pending-view.js';
import { receiptText } from '../../../../src/tui/chat/pending/receipts.js';
import type { PendingInput } from '../../../../src/tui/store.js';

let nextId = 1;
function item(text: string, extra: Partial<PendingInput> = {}): PendingInput {
  return { id: nextId++, text, attachmentCount: 0, submission: { text, textElements: [], attachments: [] }, ...extra };
}

describe('pendingKey', () => {
  it('maps every key of the list', () => {
    expect(pendingKey(key('up'))).toEqual({ type: 'select', by: -1 });
    expect(pendingKey(key('down'))).toEqual({ type: 'select', by: 1 });
    expect(pendingKey(key('char', { char: 'k' }))).toEqual({ type: 'select', by: -1 });
    expect(pendingKey(key('char', { char: 'j' }))).toEqual({ type: 'select', by: 1 });
    expect(pendingKey(key('up', { alt: true }))).toEqual({ type: 'reorder', by: -1 });
    expect(pendingKey(key('down', { meta: true }))).toEqual({ type: 'reorder', by: 1 });
    expect(pendingKey(key('enter'))).toEqual({ type: 'edit' });
    expect(pendingKey(key('char', { char: 'e' }))).toEqual({ type: 'edit' });
    expect(pendingKey(key('char', { char: 'd' }))).toEqual({ type: 'retract' });
    expect(pendingKey(key('delete'))).toEqual({ type: 'retract' });
    expect(pendingKey(key('char', { char: 's' }))).toEqual({ type: 'toSteer' });
    expect(pendingKey(key('char', { char: 'q' }))).toEqual({ type: 'toQueue' });
    expect(pendingKey(key('char', { char: 'n' }))).toEqual({ type: 'sendNow' });
    expect(pendingKey(key('escape'))).toEqual({ type: 'leave' });
    expect(pendingKey(key('char', { char: 'c', ctrl: true }))).toEqual({ type: 'leave' });
    expect(pendingKey(key('char', { char: 'x' }))).toEqual({ type: 'ignore' });
    expect(pendingKey(key('char', { char: 'e', ctrl: true }))).toEqual({ type: 'ignore' });
  });

  it('Ctrl+Enter is send-now; Enter and Shift+Enter are not', () => {
    expect(isSendNowKey(key('enter', { ctrl: true }))).toBe(true);
    expect(isSendNowKey(key('enter'))).toBe(false);
    expect(isSendNowKey(key('enter', { ctrl: true, shift: true }))).toBe(false);
  });
});

describe('pending updaters', () => {
  const lists = () => ({ pendingSteers: [item('s1'), item('s2')], rejectedSteers: [item('r')], queued: [item('q1'), item('q2')] });

  it('delivery order is steers, rejected, queued; neighbours stop at the ends', () => {
    const s = lists();
    expect(waitingInOrder(s).map((l) => l.item.text)).toEqual(['s1', 's2', 'r', 'q1', 'q2']);
    const [first, , , , last] = waitingInOrder(s).map((l) => l.item.id);
    expect(neighbourId(s, first!, -1)).toBe(first);
    expect(neighbourId(s, last!, 1)).toBe(last);
    expect(neighbourId(s, first!, 2)).toBe(s.rejectedSteers[0]!.id);
    expect(neighbourId(s, 999_999, 1)).toBe(first);
  });

  it('reorder swaps within a list only', () => {
    const s = lists();
    expect(reorderPending(s, s.queued[1]!.id, -1)).toEqual({ queued: [s.queued[1], s.queued[0]] });
    expect(reorderPending(s, s.queued[0]!.id, -1)).toEqual({});
    expect(reorderPending(s, s.rejectedSteers[0]!.id, 1)).toEqual({});
  });

  it('moving to the queue puts messages first, in order, as plain follow-ups without steer state', () => {
    const s = lists();
    s.pendingSteers[1] = { ...s.pendingSteers[1]!, clientId: 'c', steerState: 'waiting', compareKey: 'k' };
    const update = moveToQueueFront(s, [s.pendingSteers[1]!.id, s.rejectedSteers[0]!.id]);
    expect(update.pendingSteers?.map((p) => p.text)).toEqual(['s1']);
    expect(update.rejectedSteers).toEqual([]);
    expect(update.queued?.map((p) => p.text)).toEqual(['s2', 'r', 'q1', 'q2']);
    expect(update.queued?.[0]).not.toHaveProperty('clientId');
    expect(update.queued?.[0]?.action).toBe('plain');
    expect(findPending(s, s.queued[0]!.id)?.list).toBe('queued');
  });
});

describe('pendingPreviewLines', () => {
  it('each row says where its message stands', () => {
    const steers = [item('a', { steerState: 'sending' }), item('b', { steerState: 'waiting' })];
    const rejected = [item('c', { reason: 'compact turns cannot be steered: queued' })];
    const queued = [item('d')];
    const editing = queued[0]!.id;
    const lines = pendingPreviewLines(
      {
        pendingSteers: steers,
        rejectedSteers: rejected,
        queued,
        pendingEdit: { id: editing, displaced: { draft: { text: '', textElements: [], attachments: [] }, pendingPastes: [] } },
      },
      100,
      { platform: 'linux' },
    );
    expect(lines.map((l) => l.text)).toEqual([
      '• Messages to be submitted after next tool call (press esc to interrupt and send immediately)',
      '  ↳ a · sending…',
      '  ↳ b · waiting for the next tool call',
      '',
      '• Messages to be submitted at end of turn',
      '  ↳ c · compact turns cannot be steered: queued',
      '',
      '• Queued follow-up inputs',
      '  ↳ d · editing: not sent until you press enter',
      '    alt + ↑ edit last queued message · ctrl + q manage',
    ]);
  });

  it('a state that does not fit goes on a row of its own', () => {
    const lines = pendingPreviewLines(
      { pendingSteers: [item('x'.repeat(20), { steerState: 'waiting' })], rejectedSteers: [], queued: [] },
      30,
    );
    const texts = lines.map((l) => l.text);
    const at = texts.indexOf('  ↳ xxxxxxxxxxxxxxxxxxxx');
    expect(texts.slice(at, at + 3)).toEqual(['  ↳ xxxxxxxxxxxxxxxxxxxx', '    waiting for the next tool', '    call']);
  });

  it('a cut keeps the selected message in view', () => {
    const queued = Array.from({ length: 20 }, (_, i) => item(`m${i}`));
    const selectedId = queued[15]!.id;
    const lines = pendingPreviewLines({ pendingSteers: [], rejectedSteers: [], queued, pendingFocus: { selectedId } }, 80, { maxLines: 6 });
    expect(lines).toHaveLength(6);
    expect(lines.map((l) => l.text)).toContain('› ↳ m15');
    expect(lines.find((l) => l.text === '› ↳ m15')?.style).toBe('selected');
    expect(lines[0]?.text).toMatch(/^ {4}… \d+ earlier lines$/);
  });
});

describe('receiptText', () => {
  it('names the tool call, the sampling request and the time since Enter', () => {
    const after = { id: 'c', type: 'commandExecution' as const, command: 'cargo test\n  --all' };
    expect(receiptText({ samplingRequest: 2, afterItem: after, deliveredAtMs: 0 }, 4_100)).toBe(
      'delivered after $ cargo test --all (sampling 2) · 4.1 s after Enter',
    );
    expect(
      receiptText(
        { samplingRequest: 3, afterItem: { id: 'm', type: 'mcpToolCall', server: 'fs', tool: 'read' }, deliveredAtMs: 0 },
        12_400,
      ),
    ).toBe('delivered after fs.read (sampling 3) · 12 s after Enter');
    expect(receiptText({ samplingRequest: 2, afterItem: null, deliveredAtMs: 0 }, null)).toBe('delivered with sampling 2');
    expect(receiptText({ samplingRequest: 2, afterItem: { id: 'o', type: 'other' }, deliveredAtMs: 0 }, 0)).toBe(
      'delivered after a tool call (sampling 2) · 0.0 s after Enter',
    );
  });
});
