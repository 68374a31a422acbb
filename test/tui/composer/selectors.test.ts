import { describe, expect, it } from 'vitest';
import {
  attachmentRows,
  currentDraft,
  footerHint,
  hasPopup,
  isEmpty,
  renderComposer,
  shortcutsVisible,
  vimInsertOwnsEscape,
} from '../../../src/tui/composer/reducer.js';
import { Driver, image } from './driver.js';

describe('composer selectors', () => {
  it('an empty composer renders as empty with the › prompt and the shortcuts hint', () => {
    const d = new Driver();
    expect(isEmpty(d.state)).toBe(true);
    expect(hasPopup(d.state)).toBe(false);
    expect(footerHint(d.state)).toBe('? for shortcuts');
    expect(shortcutsVisible(d.state)).toBe(false);
    expect(renderComposer(d.state, 20)).toMatchObject({ prompt: '›', empty: true, caret: { row: 0, col: 0 } });
  });

  it('renders elements with their kind and the caret after them', () => {
    const d = new Driver();
    d.type('你');
    d.send({ type: 'attach', attachment: image('/a.png') });
    const r = renderComposer(d.state, 40);
    expect(r.rows[0]!.spans).toEqual([
      { text: '你', kind: 'text' },
      { text: '[Image #1]', kind: 'image' },
      { text: ' ', kind: 'text' },
    ]);
    expect(r.caret).toEqual({ row: 0, col: 13 });
    expect(attachmentRows(d.state)).toEqual([{ ...image('/a.png'), placeholder: '[Image #1]' }]);
  });

  it('shell mode renders the ! prompt and is not empty', () => {
    const d = new Driver();
    d.type('!');
    d.settle();
    expect(isEmpty(d.state)).toBe(false);
    expect(renderComposer(d.state, 20)).toMatchObject({ prompt: '!', empty: false });
  });

  it('the current draft has large pastes expanded and valid elements', () => {
    const d = new Driver();
    d.paste('q'.repeat(1001));
    d.send({ type: 'attach', attachment: image('/a.png') });
    const draft = currentDraft(d.state);
    expect(draft.text).toBe(`${'q'.repeat(1001)}[Image #1] `);
    expect(draft.textElements).toEqual([{ byte_range: { start: 1001, end: 1011 }, placeholder: '[Image #1]' }]);
    expect(draft.attachments).toHaveLength(1);
  });

  it('a pending Vim operator owns Esc too', () => {
    const d = new Driver({ vimEnabled: true });
    expect(vimInsertOwnsEscape(d.state)).toBe(false);
    d.type('d');
    expect(vimInsertOwnsEscape(d.state)).toBe(true);
    d.key('escape');
    expect(vimInsertOwnsEscape(d.state)).toBe(false);
  });
});
