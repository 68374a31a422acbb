import { describe, expect, it } from 'vitest';
import type { V2TextElement, V2UserInput } from '../../../../src/protocol/api.js';
import { collapsePastes, promptDraft, type AttachmentProbe } from '../../../../src/tui/chat/sessions/prompt-draft.js';
import { Driver } from '../../composer/driver.js';

const text = (t: string, elements: V2TextElement[] = []): V2UserInput => ({ type: 'text', text: t, text_elements: elements });
const png = (path: string) => ({
  kind: 'image' as const,
  path,
  fileName: path.split('/').at(-1)!,
  bytes: 10,
  width: 1,
  height: 1,
  mime: 'image/png',
});
const probe: AttachmentProbe = (path) => (path.startsWith('/gone') ? null : png(path));

describe('collapsePastes', () => {
  it('turns an element whose label differs from its text back into the label, the text its payload', () => {
    const paste = 'x'.repeat(1200);
    const label = '[Pasted Content 1200 chars]';
    const sub = {
      text: `é ${paste} [Image #1]`,
      textElements: [
        { byte_range: { start: 3, end: 1203 }, placeholder: label },
        { byte_range: { start: 1204, end: 1214 }, placeholder: '[Image #1]' },
      ],
      attachments: [],
    };
    expect(collapsePastes(sub)).toEqual({
      draft: {
        text: `é ${label} [Image #1]`,
        textElements: [
          { byte_range: { start: 3, end: 30 }, placeholder: label },
          { byte_range: { start: 31, end: 41 }, placeholder: '[Image #1]' },
        ],
        attachments: [],
      },
      pendingPastes: [{ placeholder: label, text: paste }],
    });
  });

  it('leaves a message without pastes as it is', () => {
    const sub = { text: 'plain', textElements: [], attachments: [] };
    expect(collapsePastes(sub)).toEqual({ draft: sub, pendingPastes: [] });
  });
});

describe('promptDraft: a recorded prompt back in the composer', () => {
  it('pastes as atomic placeholders, images re-attached, skills bound; it sends what was sent', () => {
    const paste = 'p'.repeat(2000);
    const label = '[Pasted Content 2000 chars]';
    const sent = `see ${paste} and [Image #1] with $deploy`;
    const at = 4 + 2000 + 5;
    const content: V2UserInput[] = [
      { type: 'localImage', path: '/tmp/a.png' },
      text(sent, [
        { byteRange: { start: 4, end: 2004 }, placeholder: label },
        { byteRange: { start: at, end: at + 10 }, placeholder: '[Image #1]' },
        { byteRange: { start: at + 16, end: at + 23 }, placeholder: '$deploy' },
      ]),
      { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
    ];
    const restored = promptDraft(content, probe);
    expect(restored.missing).toEqual([]);
    expect(restored.draft.text).toBe(`see ${label} and [Image #1] with $deploy`);
    expect(restored.draft.attachments).toEqual([{ ...png('/tmp/a.png'), placeholder: '[Image #1]' }]);
    expect(restored.draft.mentions).toEqual([{ name: 'deploy', path: '/skills/deploy/SKILL.md' }]);
    expect(restored.pendingPastes).toEqual([{ placeholder: label, text: paste }]);

    const d = new Driver();
    d.send({ type: 'restoreDraft', draft: restored.draft, pendingPastes: restored.pendingPastes });
    expect(d.text).toBe(`see ${label} and [Image #1] with $deploy`);
    expect(d.state.ta.elements.map((e) => e.kind)).toEqual(['paste', 'image', 'mention']);
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      text: sent,
      attachments: [{ path: '/tmp/a.png', placeholder: '[Image #1]' }],
    });
  });

  it('an image that is gone (or was sent by URL) loses its label and is listed; the others are renumbered by the composer', () => {
    const content: V2UserInput[] = [
      { type: 'localImage', path: '/gone/a.png' },
      { type: 'localImage', path: '/tmp/b.png' },
      { type: 'image', url: 'https://example.com/c.png' },
      text('[Image #1] [Image #2] [Image #3] look', [
        { byteRange: { start: 0, end: 10 }, placeholder: '[Image #1]' },
        { byteRange: { start: 11, end: 21 }, placeholder: '[Image #2]' },
        { byteRange: { start: 22, end: 32 }, placeholder: '[Image #3]' },
      ]),
    ];
    const restored = promptDraft(content, probe);
    expect(restored.missing).toEqual(['/gone/a.png', '[Image #3] (sent by URL)']);
    expect(restored.draft.text).toBe(' [Image #2]  look');
    const d = new Driver();
    d.send({ type: 'restoreDraft', draft: restored.draft, pendingPastes: restored.pendingPastes });
    expect(d.text).toBe(' [Image #1]  look');
    expect(d.state.attachments.map((a) => a.path)).toEqual(['/tmp/b.png']);
  });

  it('an image-only prompt comes back as its attachment', () => {
    const restored = promptDraft([{ type: 'localImage', path: '/tmp/a.png' }], probe);
    const d = new Driver();
    d.send({ type: 'restoreDraft', draft: restored.draft, pendingPastes: restored.pendingPastes });
    expect(d.text).toBe('[Image #1] ');
    expect(d.state.attachments).toHaveLength(1);
  });
});
