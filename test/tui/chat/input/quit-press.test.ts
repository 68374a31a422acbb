import { describe, expect, it } from 'vitest';
import { QUIT_CONFIRM_MS, quitHintText, quitPress } from '../../../../src/tui/chat/input/quit-press.js';

describe('quitPress', () => {
  it('arms on the first press and quits on a second of the same key in time', () => {
    const arm = quitPress(null, 'c', 1_000);
    expect(arm).toEqual({ key: 'c', until: 1_000 + QUIT_CONFIRM_MS });
    expect(quitPress(arm === 'quit' ? null : arm, 'c', 1_000 + QUIT_CONFIRM_MS - 1)).toBe('quit');
  });

  it('arms again when the window has passed or the other key is pressed', () => {
    const arm = { key: 'c' as const, until: 2_500 };
    expect(quitPress(arm, 'c', 2_500)).toEqual({ key: 'c', until: 2_500 + QUIT_CONFIRM_MS });
    expect(quitPress(arm, 'd', 2_000)).toEqual({ key: 'd', until: 2_000 + QUIT_CONFIRM_MS });
  });

  it('names the key in the hint', () => {
    expect(QUIT_CONFIRM_MS).toBe(1500);
    expect(quitHintText('c')).toBe('press Ctrl+C again to quit');
    expect(quitHintText('d')).toBe('press Ctrl+D again to quit');
  });
});
