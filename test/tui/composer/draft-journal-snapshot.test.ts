/**
 * The draft journal's document (composer/draft-snapshot.ts): a composer and the waiting messages go
 * to JSON and back, and Enter on the restored draft submits exactly what the original would have.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeDraftDocument,
  DraftDocumentError,
  encodeDraftDocument,
  hasUnsentInput,
  restoreComposer,
  restoreNotice,
  unsentInputOf,
  withAttachmentPaths,
  type DraftDocument,
  type UnsentInput,
} from '../../../src/tui/composer/draft-snapshot.js';
import { composerReducer, initialComposerState, type ComposerState } from '../../../src/tui/composer/reducer.js';
import type { Submission } from '../../../src/tui/composer/types.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { Driver, image, noMedia } from './driver.js';

const NO_LISTS = { pendingSteers: [], rejectedSteers: [], queued: [] };

function documentOf(u: UnsentInput): DraftDocument {
  return { version: 1, cwd: '/work/项目', threadId: null, pid: 42, ...u };
}

/** Through JSON text and into a fresh composer, as a relaunch does. */
function roundTrip(state: ComposerState, opts: { vimEnabled?: boolean } = {}): { restored: ComposerState; doc: DraftDocument } {
  const text = encodeDraftDocument(documentOf(unsentInputOf(state, NO_LISTS)));
  const doc = decodeDraftDocument(text);
  const fresh = initialComposerState({ vimEnabled: opts.vimEnabled ?? state.vimEnabled, probeMedia: noMedia });
  return { restored: restoreComposer(fresh, doc), doc };
}

function shape(state: ComposerState): unknown {
  return {
    text: state.ta.text,
    cursor: state.ta.cursor,
    elements: state.ta.elements.map((e) => ({ kind: e.kind, shown: state.ta.text.slice(e.start, e.end), start: e.start })),
    bashMode: state.bashMode,
    pendingPastes: state.pendingPastes,
    attachments: state.attachments.map(({ elementId: _, ...a }) => a),
    mentions: state.mentions.map(({ elementId: _, ...m }) => m),
    vim: state.vimEnabled ? state.vim.mode : null,
  };
}

function enterResult(state: ComposerState): unknown {
  return composerReducer(state, key('enter'), 10_000_000).result;
}

const CJK_EMOJI = '你好，世界 👋🏽 — naïve 👨‍👩‍👧 ok';

describe('draft snapshot round trip', () => {
  it('text with CJK and emoji, two large pastes and two images come back exactly; Enter submits the same', () => {
    const d = new Driver();
    d.type(`${CJK_EMOJI} `);
    d.settle();
    const big = `${'表'.repeat(2000)}🎉${'x'.repeat(2998)}`;
    d.paste(big);
    d.type(' and ');
    d.settle();
    d.paste('y'.repeat(1500));
    d.send({ type: 'attach', attachment: image('/tmp/shot one.png') });
    d.send({ type: 'attach', attachment: { ...image('/home/me/voice.wav'), kind: 'audio', mime: 'audio/wav', width: null, height: null } });
    d.send({ type: 'attach', attachment: image('/tmp/b.png') });
    d.key('left');
    d.key('left');
    const { restored, doc } = roundTrip(d.state);
    expect(doc.draft!.pendingPastes).toHaveLength(2);
    expect(shape(restored)).toEqual(shape(d.state));
    expect(restored.ta.elements.map((e) => e.kind)).toEqual(['paste', 'paste', 'image', 'audio', 'image']);
    const sent = enterResult(restored);
    expect(sent).toEqual(enterResult(d.state));
    expect(sent).toMatchObject({ type: 'submitted', text: expect.stringContaining(big) });
  });

  it('a paste label stays one atomic element after the restore (Backspace removes it and its payload)', () => {
    const d = new Driver();
    d.paste('z'.repeat(1200));
    const { restored } = roundTrip(d.state);
    expect(restored.ta.text).toBe('[Pasted Content 1200 chars]');
    const after = composerReducer(restored, key('backspace'), 10_000_000).state;
    expect(after.ta.text).toBe('');
    expect(after.pendingPastes).toEqual([]);
  });

  it('shell mode, a slash command and a bound $mention survive', () => {
    const shell = new Driver();
    shell.type('!ls 日本');
    shell.settle();
    expect(shell.state.bashMode).toBe(true);
    expect(shape(roundTrip(shell.state).restored)).toEqual(shape(shell.state));

    const mention = new Driver({ skills: [{ name: 'deploy', path: '/skills/deploy/SKILL.md' }] });
    mention.type('use $dep');
    mention.settle();
    mention.key('tab');
    mention.type('now');
    mention.settle();
    expect(mention.state.mentions).toHaveLength(1);
    const { restored } = roundTrip(mention.state);
    expect(shape(restored)).toEqual(shape(mention.state));
    expect(enterResult(restored)).toEqual(enterResult(mention.state));
  });

  it('Vim mode: Normal and Insert come back with the caret; Visual comes back as Normal', () => {
    const normal = new Driver({ vimEnabled: true });
    normal.type('i');
    normal.type('hello wörld 🌍');
    normal.key('escape');
    normal.type('b');
    expect(normal.state.vim.mode).toBe('normal');
    const back = roundTrip(normal.state).restored;
    expect(shape(back)).toEqual(shape(normal.state));

    const insert = new Driver({ vimEnabled: true });
    insert.type('i');
    insert.type('typing 中');
    expect(shape(roundTrip(insert.state).restored)).toEqual(shape(insert.state));

    const visual = new Driver({ vimEnabled: true });
    visual.type('i');
    visual.type('abc');
    visual.key('escape');
    visual.type('v');
    expect(visual.state.vim.mode).toBe('visual');
    const { restored, doc } = roundTrip(visual.state);
    expect(doc.vim).toEqual({ enabled: true, mode: 'normal' });
    expect(restored.vim.mode).toBe('normal');
    expect(restored.ta.text).toBe('abc');
  });

  it('the stash comes back as the stash', () => {
    const d = new Driver();
    d.paste('s'.repeat(1100));
    d.ctrl('s');
    d.type('other');
    d.settle();
    const { restored, doc } = roundTrip(d.state);
    expect(doc.stash?.pendingPastes).toHaveLength(1);
    expect(restored.ta.text).toBe('other');
    expect(restored.stash).not.toBeNull();
    // Ctrl+S swaps: the stashed draft is back with its payload, `other` is stashed.
    const swapped = composerReducer(restored, charKey('s', { ctrl: true }), 10_000_000).state;
    expect(swapped.ta.text).toBe('[Pasted Content 1100 chars]');
    expect(swapped.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1100 chars]', text: 's'.repeat(1100) }]);
    expect(swapped.ta.elements.map((e) => e.kind)).toEqual(['paste']);
  });

  it('a restore into a composer with text puts the saved draft first, and both drafts keep their pastes and images', () => {
    const saved = new Driver();
    saved.paste('a'.repeat(1100));
    saved.send({ type: 'attach', attachment: image('/tmp/1.png') });
    const now = new Driver();
    now.paste('b'.repeat(1100));
    now.send({ type: 'attach', attachment: image('/tmp/2.png') });
    const restored = restoreComposer(now.state, unsentInputOf(saved.state, NO_LISTS));
    expect(restored.ta.text).toBe('[Pasted Content 1100 chars][Image #1] \n[Pasted Content 1100 chars][Image #2] ');
    expect(restored.attachments.map((a) => [a.placeholder, a.path])).toEqual([
      ['[Image #1]', '/tmp/1.png'],
      ['[Image #2]', '/tmp/2.png'],
    ]);
    expect(enterResult(restored)).toMatchObject({
      type: 'submitted',
      text: `${'a'.repeat(1100)}[Image #1] \n${'b'.repeat(1100)}[Image #2]`,
    });
  });

  it('waiting messages keep their order (rejected, pending, queued) and their actions', () => {
    const sub = (text: string): Submission => ({ text, textElements: [], attachments: [] });
    const img: Submission = {
      text: '[Image #1] what',
      textElements: [{ byte_range: { start: 0, end: 10 }, placeholder: '[Image #1]' }],
      attachments: [{ ...image('/tmp/q.png'), placeholder: '[Image #1]' }],
    };
    const u = unsentInputOf(initialComposerState({ vimEnabled: false, probeMedia: noMedia }), {
      pendingSteers: [{ submission: sub('pending 🚀') }],
      rejectedSteers: [{ submission: sub('rejected') }],
      queued: [
        { submission: img, action: 'plain' },
        { submission: sub('/diff'), action: 'parseSlash' },
        { submission: sub('!ls'), action: 'runShell' },
      ],
    });
    expect(hasUnsentInput(u)).toBe(true);
    const doc = decodeDraftDocument(encodeDraftDocument(documentOf(u)));
    expect(doc.draft).toBeNull();
    expect(doc.waiting.map((w) => [w.submission.text, w.action])).toEqual([
      ['rejected', 'plain'],
      ['pending 🚀', 'plain'],
      ['[Image #1] what', 'plain'],
      ['/diff', 'parseSlash'],
      ['!ls', 'runShell'],
    ]);
    expect(doc.waiting[2]!.submission).toEqual(img);
    expect(restoreNotice(doc).text).toBe('Restored 5 queued messages');
  });

  it('an empty composer with nothing waiting is nothing unsent', () => {
    expect(hasUnsentInput(unsentInputOf(initialComposerState({ vimEnabled: true, probeMedia: noMedia }), NO_LISTS))).toBe(false);
  });

  it('attachment paths can be moved (to the journal copies) everywhere they occur', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/clip.png') });
    const queued = {
      submission: { text: '', textElements: [], attachments: [{ ...image('/tmp/clip.png'), placeholder: '[Image #1]' }] },
      action: 'plain' as const,
    };
    const u = unsentInputOf(d.state, { ...NO_LISTS, queued: [queued] });
    const moved = withAttachmentPaths(u, new Map([['/tmp/clip.png', '/home/.tiller/drafts/attachments/abc.png']]));
    expect(moved.draft!.attachments[0]!.path).toBe('/home/.tiller/drafts/attachments/abc.png');
    expect(moved.draft!.attachments[0]!.fileName).toBe('/tmp/clip.png');
    expect(moved.waiting[0]!.submission.attachments[0]!.path).toBe('/home/.tiller/drafts/attachments/abc.png');
  });
});

describe('the restore notice', () => {
  const draftWith = (pastes: number, images: number): UnsentInput => {
    const d = new Driver();
    for (let i = 0; i < pastes; i++) d.paste('p'.repeat(1001 + i));
    for (let i = 0; i < images; i++) d.send({ type: 'attach', attachment: image(`/i${i}.png`) });
    return unsentInputOf(d.state, NO_LISTS);
  };

  it('names the counts present', () => {
    expect(restoreNotice(draftWith(2, 1))).toEqual({ text: 'Restored your unsent draft: 2 pastes, 1 image' });
    expect(restoreNotice(draftWith(0, 1))).toEqual({ text: 'Restored your unsent draft: 1 image' });
    const plain = new Driver();
    plain.type('hi');
    plain.settle();
    expect(restoreNotice(unsentInputOf(plain.state, NO_LISTS))).toEqual({ text: 'Restored your unsent draft' });
  });

  it('adds the queued messages and says they wait for Enter', () => {
    const u = { ...draftWith(1, 0), waiting: [{ submission: { text: 'q', textElements: [], attachments: [] }, action: 'plain' as const }] };
    expect(restoreNotice(u)).toEqual({
      text: 'Restored your unsent draft: 1 paste and 1 queued message',
      hint: 'The queued message waits: your next Enter sends it (before anything you type).',
    });
  });
});

describe('decoding a damaged or foreign document', () => {
  const typed = new Driver();
  typed.type('x');
  typed.settle();
  const good = encodeDraftDocument(documentOf(unsentInputOf(typed.state, NO_LISTS)));

  it('the undamaged document decodes', () => {
    expect(decodeDraftDocument(good).draft?.text).toBe('x');
    expect(good).toContain('"textElements":[]');
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['a list', '[]'],
    ['no version', JSON.stringify({ ...JSON.parse(good), version: undefined })],
    ['a bad element', good.replace('"textElements":[]', '"textElements":[{"byte_range":{"start":-1,"end":2}}]')],
    [
      'a bad waiting action',
      JSON.stringify({ ...JSON.parse(good), waiting: [{ action: 'send', submission: { text: '', textElements: [], attachments: [] } }] }),
    ],
    ['a bad vim mode', JSON.stringify({ ...JSON.parse(good), vim: { enabled: true, mode: 'visual' } })],
  ])('%s is refused with a reason', (_, text) => {
    expect(() => decodeDraftDocument(text)).toThrow(DraftDocumentError);
  });

  it('a newer version is told apart from damage', () => {
    try {
      decodeDraftDocument(JSON.stringify({ ...JSON.parse(good), version: 2 }));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DraftDocumentError);
      expect((error as DraftDocumentError).newerVersion).toBe(true);
    }
  });
});
