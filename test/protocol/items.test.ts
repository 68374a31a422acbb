import { describe, expect, it } from 'vitest';
import { UserMessageItem } from '../../src/protocol/items.js';
import type { UserInput } from '../../src/protocol/user-input.js';

const content: UserInput[] = [
  { type: 'text', text: '看 [Image #1] ', text_elements: [{ byte_range: { start: 4, end: 14 } }] },
  { type: 'image', image_url: 'https://example.com/a.png' },
  { type: 'local_image', path: '/tmp/b.png', detail: 'low' },
  { type: 'audio', audio_url: 'data:audio/wav;base64,abc' },
  { type: 'local_audio', path: '/tmp/c.mp3' },
  { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
  { type: 'text', text: '👨‍👩‍👧 $deploy', text_elements: [{ byte_range: { start: 19, end: 26 }, placeholder: '$deploy' }] },
  { type: 'mention', name: 'docs', path: 'mcp://docs' },
];

describe('UserMessageItem', () => {
  const item = new UserMessageItem(content, { id: 'item-1' });

  it('joins the text items only; media never becomes text', () => {
    expect(item.message()).toBe('看 [Image #1] 👨‍👩‍👧 $deploy');
  });

  it('shifts each item’s ranges by the UTF-8 bytes of the text before it, resolving placeholders', () => {
    const first = Buffer.byteLength('看 [Image #1] ');
    expect(first).toBe(15);
    expect(item.textElements()).toEqual([
      { byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' },
      { byte_range: { start: first + 19, end: first + 26 }, placeholder: '$deploy' },
    ]);
    const joined = Buffer.from(item.message());
    expect(joined.subarray(first + 19, first + 26).toString()).toBe('$deploy');
  });

  it('lists attachments by kind, keeping remote and local apart', () => {
    expect(item.imageUrls()).toEqual(['https://example.com/a.png']);
    expect(item.localImagePaths()).toEqual(['/tmp/b.png']);
    expect(item.audioUrls()).toEqual(['data:audio/wav;base64,abc']);
    expect(item.localAudioPaths()).toEqual(['/tmp/c.mp3']);
  });

  it('lists image details in order, trimming trailing unset ones', () => {
    expect(item.imageDetails()).toEqual([null, 'low']);
    expect(new UserMessageItem([{ type: 'image', image_url: 'u' }]).imageDetails()).toEqual([]);
    expect(
      new UserMessageItem([
        { type: 'image', image_url: 'u', detail: 'original' },
        { type: 'local_image', path: 'p' },
      ]).imageDetails(),
    ).toEqual(['original']);
  });

  it('keeps its id and client id, and generates an id when none is given', () => {
    expect(item.id).toBe('item-1');
    expect(item.clientId).toBeNull();
    const fresh = new UserMessageItem([], { clientId: 'c1' });
    expect(fresh.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fresh.clientId).toBe('c1');
    expect(fresh.message()).toBe('');
    expect(fresh.textElements()).toEqual([]);
  });
});
