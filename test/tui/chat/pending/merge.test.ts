import { describe, expect, it } from 'vitest';
import { validateTextElements } from '../../../../src/protocol/text-element.js';
import { byteLength } from '../../../../src/protocol/utf8.js';
import type { Attachment, Submission } from '../../../../src/tui/composer/types.js';
import { mergeSubmissions } from '../../../../src/tui/chat/pending/merge.js';

function image(n: number, path: string): Attachment {
  return { kind: 'image', placeholder: `[Image #${n}]`, path, fileName: path, bytes: 1, width: 1, height: 1, mime: 'image/png' };
}

/** A submission whose text holds the given placeholders as elements. */
function msg(parts: (string | Attachment)[]): Submission {
  let text = '';
  const textElements: Submission['textElements'] = [];
  const attachments: Attachment[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      text += p;
      continue;
    }
    const start = byteLength(text);
    text += p.placeholder;
    textElements.push({ byte_range: { start, end: byteLength(text) }, placeholder: p.placeholder });
    attachments.push(p);
  }
  return { text, textElements, attachments };
}

describe('mergeSubmissions', () => {
  it('joins texts with newlines and skips empty messages', () => {
    const merged = mergeSubmissions([msg(['first']), { text: '', textElements: [], attachments: [] }, msg(['second'])]);
    expect(merged).toEqual({ text: 'first\nsecond', textElements: [], attachments: [] });
  });

  it('renumbers images across messages and rebases their byte ranges', () => {
    const a = msg(['見て ', image(1, '/a.png'), ' 😀']);
    const b = msg([image(1, '/b.png'), ' and ', image(2, '/c.png')]);
    const merged = mergeSubmissions([a, b]);
    expect(merged.text).toBe('見て [Image #1] 😀\n[Image #2] and [Image #3]');
    expect(merged.attachments.map((x) => [x.placeholder, x.path])).toEqual([
      ['[Image #1]', '/a.png'],
      ['[Image #2]', '/b.png'],
      ['[Image #3]', '/c.png'],
    ]);
    expect(validateTextElements(merged.text, merged.textElements)).toEqual({ ok: true });
    const shown = merged.textElements.map((el) => Buffer.from(merged.text).subarray(el.byte_range.start, el.byte_range.end).toString());
    expect(shown).toEqual(['[Image #1]', '[Image #2]', '[Image #3]']);
    expect(merged.textElements.map((el) => el.placeholder)).toEqual(shown);
  });

  it('handles a label whose length changes (#9 → #10)', () => {
    const many = Array.from({ length: 9 }, (_, i) => msg([image(1, `/${i}.png`)]));
    const last = msg(['x ', image(1, '/z.png'), ' y']);
    const merged = mergeSubmissions([...many, last]);
    expect(merged.text.split('\n').at(-1)).toBe('x [Image #10] y');
    expect(validateTextElements(merged.text, merged.textElements)).toEqual({ ok: true });
  });

  it('gives image-only messages a visible placeholder', () => {
    const imageOnly: Submission = { text: '', textElements: [], attachments: [image(1, '/a.png')] };
    const merged = mergeSubmissions([msg(['hi']), imageOnly]);
    expect(merged.text).toBe('hi\n[Image #1]');
    expect(merged.textElements).toEqual([{ byte_range: { start: 3, end: 13 }, placeholder: '[Image #1]' }]);
  });
});
