/**
 * A bracketed paste or a detected paste burst whose whole content is one path attaches it.
 * The burst half, in the composer with injected time: keys 1 ms apart, as a terminal without
 * bracketed paste delivers a paste.
 */
import { describe, expect, it } from 'vitest';
import { charKey } from '../../src/tui/keys/types.js';
import { Driver, fakeImageProbe } from './composer/driver.js';

function burst(d: Driver, text: string): void {
  for (const ch of text) {
    if (ch === '\n') d.key('enter', {}, 1);
    else d.send(charKey(ch), 1);
  }
}

describe('a paste burst of one media path', () => {
  it('an absolute path (slash first) attaches once the burst flushes; no popup, nothing typed', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    burst(d, '/tmp/shots/rel.png');
    expect(d.text).toBe('');
    expect(d.state.popup).toBeNull();
    d.settle();
    expect(d.text).toBe('[Image #1] ');
    expect(d.state.attachments).toMatchObject([{ placeholder: '[Image #1]', path: '/tmp/shots/rel.png' }]);
    expect(d.results).toEqual([]);
  });

  it('a trailing newline in the burst is part of the paste: the path still attaches and nothing is submitted', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    burst(d, 'shots/rel.png\n');
    d.settle();
    expect(d.text).toBe('[Image #1] ');
    expect(d.results).toEqual([]);
    d.enter(200);
    expect(d.results).toMatchObject([{ type: 'submitted', text: '', attachments: [{ placeholder: '[Image #1]' }] }]);
  });

  it('a burst that is not one path stays text', () => {
    const d = new Driver({ probeMedia: fakeImageProbe });
    burst(d, 'see rel.png please');
    d.settle();
    expect(d.text).toBe('see rel.png please');
    expect(d.state.attachments).toEqual([]);
  });
});
