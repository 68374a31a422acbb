import { describe, expect, it } from 'vitest';
import { formatAttachmentRow, humanSize } from '../../../src/tui/media/attachment-row.js';

describe('formatAttachmentRow', () => {
  it('shows label, file name, size and pixel size for an image', () => {
    expect(
      formatAttachmentRow({ kind: 'image', placeholder: '[Image #1]', fileName: 'shot.png', bytes: 1_234_567, width: 4000, height: 3000 }),
    ).toBe('[Image #1] shot.png · 1.2 MB · 4000×3000');
  });

  it('leaves the pixel size out for audio', () => {
    expect(
      formatAttachmentRow({ kind: 'audio', placeholder: '[Audio #2]', fileName: 'memo.m4a', bytes: 512, width: null, height: null }),
    ).toBe('[Audio #2] memo.m4a · 512 B');
  });

  it('says at once when a file is over the size limit (50 MiB audio, 1 GiB image); exactly the limit is fine', () => {
    const audio = { kind: 'audio' as const, placeholder: '[Audio #1]', fileName: 'long.wav', width: null, height: null };
    expect(formatAttachmentRow({ ...audio, bytes: 50 * 2 ** 20 })).toBe('[Audio #1] long.wav · 52.4 MB');
    expect(formatAttachmentRow({ ...audio, bytes: 50 * 2 ** 20 + 1 })).toBe(
      '[Audio #1] long.wav · 52.4 MB · too large to send (audio limit 50 MiB)',
    );
    const image = { kind: 'image' as const, placeholder: '[Image #1]', fileName: 'scan.png', width: 1, height: 1 };
    expect(formatAttachmentRow({ ...image, bytes: 2 ** 30 + 1 })).toBe(
      '[Image #1] scan.png · 1.1 GB · 1×1 · too large to send (image limit 1 GiB)',
    );
  });

  it('shows control characters in a file name visibly instead of sending them to the terminal', () => {
    const row = formatAttachmentRow({
      kind: 'image',
      placeholder: '[Image #1]',
      fileName: 'a\u001b[31mb\u007f\u009b.png',
      bytes: 1,
      width: 1,
      height: 1,
    });
    expect(row).toBe('[Image #1] a^[[31mb^?<9b>.png · 1 B · 1×1');
    expect(row).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('humanSize', () => {
  it('bytes as an integer below 1 KB', () => {
    expect(humanSize(0)).toBe('0 B');
    expect(humanSize(999)).toBe('999 B');
  });

  it('one decimal in KB, MB and GB (decimal units)', () => {
    expect(humanSize(1000)).toBe('1.0 KB');
    expect(humanSize(1_550)).toBe('1.6 KB');
    expect(humanSize(3_400_000)).toBe('3.4 MB');
    expect(humanSize(1_100_000_000)).toBe('1.1 GB');
  });

  it('moves to the next unit when rounding reaches 1000', () => {
    expect(humanSize(999_960)).toBe('1.0 MB');
    expect(humanSize(999_940)).toBe('999.9 KB');
  });

  it('stays in GB for very large sizes', () => {
    expect(humanSize(5_000_000_000_000)).toBe('5000.0 GB');
  });
});
