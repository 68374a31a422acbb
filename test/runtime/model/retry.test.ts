import { describe, expect, it } from 'vitest';
import { backoffMs, parseRetryAfterHeader, parseRetryDelay, retryAnnouncement } from '../../../src/runtime/model/retry.js';

describe('backoffMs', () => {
  it('doubles from 200 ms with no jitter at the midpoint', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 0.5))).toEqual([200, 400, 800, 1600, 3200]);
  });

  it('jitters within [0.9, 1.1)', () => {
    expect(backoffMs(1, () => 0)).toBe(180);
    expect(backoffMs(3, () => 0)).toBe(720);
    expect(backoffMs(3, () => 0.999999)).toBeLessThan(880);
    expect(backoffMs(3, () => 0.999999)).toBe(879);
  });
});

describe('parseRetryDelay', () => {
  it('reads seconds with a fraction', () => {
    expect(parseRetryDelay('Rate limit reached for gpt-5. Please try again in 11.054s. Visit …')).toBe(11054);
  });

  it('reads milliseconds', () => {
    expect(parseRetryDelay('Please try again in 300ms.')).toBe(300);
  });

  it('returns null when no delay is named', () => {
    expect(parseRetryDelay('server error')).toBeNull();
  });
});

describe('parseRetryAfterHeader', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfterHeader('2')).toBe(2000);
  });

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfterHeader('2', '150')).toBe(150);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('Sun, 29 Nov 2026 19:00:00 GMT');
    expect(parseRetryAfterHeader('Sun, 29 Nov 2026 19:00:05 GMT', null, now)).toBe(5000);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfterHeader(null)).toBeNull();
    expect(parseRetryAfterHeader('soon')).toBeNull();
  });
});

describe('retryAnnouncement', () => {
  it('counts attempts against the maximum', () => {
    expect(retryAnnouncement(1, 5)).toBe('Reconnecting... 1/5');
  });

  it('spells out a wait of 10 s or more, so a long Retry-After does not look like a hang', () => {
    expect(retryAnnouncement(2, 5, 9_999)).toBe('Reconnecting... 2/5');
    expect(retryAnnouncement(2, 5, 3_600_000)).toBe('Reconnecting... 2/5 (retrying in 1 h 0 m; Esc cancels)');
  });
});
