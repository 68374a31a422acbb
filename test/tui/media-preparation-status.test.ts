/**
 * Media preparation longer than 100 ms shows a spinner. The runtime announces it
 * after MEDIA_PREPARATION_NOTICE_MS (app-server-media.test.ts checks the announcement with the delay
 * injected); this pins the default and the status wording the TUI shows for it.
 */
import { describe, expect, it } from 'vitest';
import { MEDIA_PREPARATION_NOTICE_MS } from '../../src/runtime/core/session.js';
import { preparingStatus } from '../../src/tui/chat/turn/notifications.js';

describe('the media preparation notice', () => {
  it('comes after 100 ms by default', () => {
    expect(MEDIA_PREPARATION_NOTICE_MS).toBe(100);
  });

  it('says how many attachments are being prepared', () => {
    expect(preparingStatus(1)).toBe('Preparing 1 attachment…');
    expect(preparingStatus(4)).toBe('Preparing 4 attachments…');
  });
});
