import { describe, expect, it } from 'vitest';
import { KILL_RING_SIZE, pushKill, EMPTY_KILL_RING, endKillSequence } from '../../../src/tui/composer/kill-ring.js';
import { charKey, key } from '../../../src/tui/keys/types.js';
import { Driver, image } from './driver.js';

const entry = (text: string) => ({ text, elements: [] });

describe('kill ring (pure)', () => {
  it('consecutive kills join the newest entry: forward appends, backward prepends', () => {
    let ring = pushKill(EMPTY_KILL_RING, entry('world'), 'backward');
    ring = pushKill(ring, entry('hello '), 'backward');
    ring = pushKill(ring, entry('!'), 'forward');
    expect(ring.entries.map((e) => e.text)).toEqual(['hello world!']);
    ring = pushKill(endKillSequence(ring), entry('next'), 'forward');
    expect(ring.entries.map((e) => e.text)).toEqual(['next', 'hello world!']);
  });

  it(`keeps at most ${KILL_RING_SIZE} entries, dropping the oldest`, () => {
    let ring = EMPTY_KILL_RING;
    for (let i = 0; i < KILL_RING_SIZE + 3; i++) ring = pushKill(endKillSequence(ring), entry(`k${i}`), 'forward');
    expect(ring.entries).toHaveLength(KILL_RING_SIZE);
    expect(ring.entries[0]!.text).toBe(`k${KILL_RING_SIZE + 2}`);
    expect(ring.entries.at(-1)!.text).toBe('k3');
  });

  it('joined entries shift the elements of the part that comes second', () => {
    let ring = pushKill(EMPTY_KILL_RING, { text: 'b [x]', elements: [{ start: 2, end: 5, kind: 'paste' }] }, 'backward');
    ring = pushKill(ring, entry('a '), 'backward');
    expect(ring.entries[0]).toEqual({ text: 'a b [x]', elements: [{ start: 4, end: 7, kind: 'paste' }] });
  });
});

const ALT_Y = charKey('y', { alt: true });

describe('kill ring in the composer', () => {
  it('Ctrl+W twice then Ctrl+Y yanks both words back in order', () => {
    const d = new Driver();
    d.type('one two three');
    d.settle();
    d.ctrl('w');
    d.ctrl('w');
    expect(d.text).toBe('one ');
    d.ctrl('y');
    expect(d.text).toBe('one two three');
    expect(d.state.killRing.entries.map((e) => e.text)).toEqual(['two three']);
  });

  it('Alt+Y right after a yank cycles to older entries, replacing the yanked text', () => {
    const d = new Driver();
    d.type('alpha beta gamma');
    d.settle();
    d.ctrl('w'); // `gamma`
    d.key('left'); // ends the kill sequence; the caret goes before the last space
    d.ctrl('w'); // `beta`
    expect(d.text).toBe('alpha  ');
    expect(d.state.killRing.entries.map((e) => e.text)).toEqual(['beta', 'gamma']);
    d.key('end');
    d.ctrl('y');
    expect(d.text).toBe('alpha  beta');
    d.send(ALT_Y);
    expect(d.text).toBe('alpha  gamma');
    d.send(ALT_Y);
    expect(d.text).toBe('alpha  beta');
    // Not right after a yank: Alt+Y does nothing.
    d.key('left');
    d.send(ALT_Y);
    expect(d.text).toBe('alpha  beta');
  });

  it('Ctrl+K, Ctrl+U, Alt+D and Alt+Backspace push too; the ring outlives a submit', () => {
    const d = new Driver();
    d.type('abc def ghi');
    d.settle();
    d.key('home');
    d.alt('d');
    expect(d.text).toBe(' def ghi');
    d.ctrl('k');
    expect(d.text).toBe('');
    expect(d.state.killRing.entries.map((e) => e.text)).toEqual(['abc def ghi']);
    d.type('xy zz');
    d.settle();
    d.send(key('backspace', { alt: true }));
    expect(d.text).toBe('xy ');
    d.ctrl('u');
    expect(d.text).toBe('');
    expect(d.state.killRing.entries.map((e) => e.text)).toEqual(['xy zz', 'abc def ghi']);
    d.type('sent');
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'sent' });
    d.ctrl('y');
    expect(d.text).toBe('xy zz');
    d.send(ALT_Y);
    expect(d.text).toBe('abc def ghi');
  });

  it('a killed paste placeholder yanked back keeps its payload (under a free label)', () => {
    const d = new Driver();
    const big = 'p'.repeat(1500);
    d.paste(big);
    d.ctrl('u');
    expect(d.text).toBe('');
    expect(d.state.pendingPastes).toEqual([]);
    d.ctrl('y');
    d.ctrl('y');
    expect(d.text).toBe('[Pasted Content 1500 chars][Pasted Content 1500 chars] #2');
    expect(d.state.ta.elements).toHaveLength(2);
    expect(d.state.pendingPastes.map((p) => p.placeholder)).toEqual(['[Pasted Content 1500 chars]', '[Pasted Content 1500 chars] #2']);
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: big + big });
  });

  it('a killed image yanked back is attached again, numbered where it lands', () => {
    const d = new Driver();
    d.type('see ');
    d.settle();
    d.send({ type: 'attach', attachment: image('/a.png') });
    d.send({ type: 'attach', attachment: image('/b.png') });
    expect(d.text).toBe('see [Image #1] [Image #2] ');
    // Ctrl+W twice from the end: `[Image #2] ` then `[Image #1] `, joined.
    d.ctrl('w');
    d.ctrl('w');
    expect(d.text).toBe('see ');
    expect(d.state.attachments).toEqual([]);
    d.ctrl('y');
    expect(d.text).toBe('see [Image #1] [Image #2] ');
    expect(d.state.attachments.map((a) => [a.placeholder, a.path])).toEqual([
      ['[Image #1]', '/a.png'],
      ['[Image #2]', '/b.png'],
    ]);
    d.ctrl('y');
    expect(d.text).toBe('see [Image #1] [Image #2] [Image #3] [Image #4] ');
    expect(d.state.attachments.map((a) => a.path)).toEqual(['/a.png', '/b.png', '/a.png', '/b.png']);
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      attachments: [{ path: '/a.png' }, { path: '/b.png' }, { path: '/a.png' }, { path: '/b.png' }],
    });
  });

  it('a killed mention keeps its skill binding', () => {
    const d = new Driver({ skills: [{ name: 'deploy', path: '/s/deploy/SKILL.md' }] });
    d.type('$dep');
    d.settle();
    d.key('tab');
    d.ctrl('u');
    expect(d.state.mentions).toEqual([]);
    d.ctrl('y');
    expect(d.text).toBe('$deploy ');
    expect(d.state.mentions).toMatchObject([{ name: 'deploy', path: '/s/deploy/SKILL.md' }]);
  });

  it('a kill and a yank are one undo step each', () => {
    const d = new Driver();
    d.type('keep cut');
    d.settle();
    d.ctrl('w');
    d.ctrl('y');
    d.ctrl('y');
    expect(d.text).toBe('keep cutcut');
    d.send(charKey('z', { ctrl: true }));
    expect(d.text).toBe('keep cut');
    d.send(charKey('z', { ctrl: true }));
    expect(d.text).toBe('keep ');
    d.send(charKey('z', { ctrl: true }));
    expect(d.text).toBe('keep cut');
  });

  it('Ctrl+Y with an empty ring puts the textarea kill buffer (a Vim yank) as before', () => {
    const d = new Driver();
    d.state = { ...d.state, ta: { ...d.state.ta, killBuffer: 'vim text' } };
    d.ctrl('y');
    expect(d.text).toBe('vim text');
  });
});
