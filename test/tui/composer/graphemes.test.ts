import { describe, expect, it } from 'vitest';
import { graphemes } from '../../../src/tui/composer/graphemes.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const bySegmenter = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

describe('graphemes', () => {
  it('splits plain ASCII by character and everything else as Intl.Segmenter does', () => {
    for (const text of ['', 'plain words, (and) punctuation ~!', 'tab\there', 'crlf\r\nline', 'é e\u0301 中文 👍🏽 🇫🇷', 'x\u200dy']) {
      expect(graphemes(text)).toEqual(bySegmenter(text));
    }
  });
});
