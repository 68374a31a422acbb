/** The app's own keys: approval answers, what unhandled keys do, and the edit-queued keys. */
import { describe, expect, it } from 'vitest';
import { approvalKey, isEditQueuedKey, unhandledKey } from '../../../../src/tui/chat/input/app-keys.js';
import { charKey, key } from '../../../../src/tui/keys/types.js';

describe('app keys', () => {
  it('maps approval keys', () => {
    expect(approvalKey(charKey('y'))).toEqual({ type: 'answer', decision: 'accept', quitHint: false });
    expect(approvalKey(charKey('a'))).toEqual({ type: 'answer', decision: 'acceptForSession', quitHint: false });
    expect(approvalKey(charKey('N', { shift: true }))).toEqual({ type: 'answer', decision: 'decline', quitHint: false });
    expect(approvalKey(key('escape'))).toEqual({ type: 'answer', decision: 'decline', quitHint: false });
    expect(approvalKey(charKey('c', { ctrl: true }))).toEqual({ type: 'answer', decision: 'decline', quitHint: true });
    expect(approvalKey(charKey('x'))).toEqual({ type: 'ignore' });
    expect(approvalKey(key('enter'))).toEqual({ type: 'ignore' });
  });

  it('decides what unhandled keys do', () => {
    const ctrlC = charKey('c', { ctrl: true });
    expect(unhandledKey(ctrlC, false, 0)).toBe('quit');
    expect(unhandledKey(ctrlC, true, 2)).toBe('interrupt');
    expect(unhandledKey(charKey('d', { ctrl: true }), false, 0)).toBe('quit');
    expect(unhandledKey(key('escape'), true, 0)).toBe('interrupt');
    expect(unhandledKey(key('escape'), true, 1)).toBe('interruptAndResubmitSteers');
    expect(unhandledKey(key('escape'), false, 1)).toBe('none');
    expect(unhandledKey(charKey('l', { ctrl: true }), false, 0)).toBe('clearScreen');
    expect(unhandledKey(charKey('l', { ctrl: true }), true, 1)).toBe('clearScreen');
    expect(unhandledKey(charKey('o', { ctrl: true }), false, 0)).toBe('copyLastAnswer');
  });

  it('recognizes Alt+Up and Shift+Left only', () => {
    expect(isEditQueuedKey(key('up', { alt: true }))).toBe(true);
    expect(isEditQueuedKey(key('left', { shift: true }))).toBe(true);
    expect(isEditQueuedKey(key('up'))).toBe(false);
    expect(isEditQueuedKey(key('left', { shift: true, ctrl: true }))).toBe(false);
  });
});
