/** A small driver for composer tests: feeds events with an injected clock and keeps the outputs. */
import { charKey, key, type KeyEvent, type KeyName } from '../../../src/tui/keys/types.js';
import { composerReducer, initialComposerState, type ComposerOutput } from '../../../src/tui/composer/reducer.js';
import type { ComposerState, ComposerOptions } from '../../../src/tui/composer/state.js';
import type { Attachment, ComposerEffect, ComposerEvent, InputResult, MediaProbe } from '../../../src/tui/composer/types.js';

export const noMedia: MediaProbe = () => null;

/** A probe that treats any `*.png` paste as a 100×50 image. */
export const fakeImageProbe: MediaProbe = (pasted) => {
  const p = pasted.trim();
  if (!/^\S+\.png$/.test(p)) return null;
  return { kind: 'image', path: p, fileName: p.split('/').pop()!, bytes: 10, width: 100, height: 50, mime: 'image/png' };
};

export function image(path: string): Omit<Attachment, 'placeholder'> {
  return { kind: 'image', path, fileName: path, bytes: 1, width: 1, height: 1, mime: 'image/png' };
}

export class Driver {
  state: ComposerState;
  now = 1_000;
  last!: ComposerOutput;
  results: InputResult[] = [];
  effects: ComposerEffect[] = [];

  constructor(opts: Partial<ComposerOptions> = {}) {
    this.state = initialComposerState({ vimEnabled: false, probeMedia: noMedia, ...opts });
  }

  get text(): string {
    return this.state.ta.text;
  }

  get cursor(): number {
    return this.state.ta.cursor;
  }

  send(event: ComposerEvent, advanceMs = 100): ComposerOutput {
    this.now += advanceMs;
    this.last = composerReducer(this.state, event, this.now);
    this.state = this.last.state;
    if (this.last.result.type !== 'none') this.results.push(this.last.result);
    this.effects.push(...this.last.effects);
    return this.last;
  }

  key(name: KeyName, mods: Partial<Omit<KeyEvent, 'type' | 'name'>> = {}, advanceMs = 100): ComposerOutput {
    return this.send(key(name, mods), advanceMs);
  }

  ctrl(c: string, advanceMs = 100): ComposerOutput {
    return this.send(charKey(c, { ctrl: true }), advanceMs);
  }

  alt(c: string, advanceMs = 100): ComposerOutput {
    return this.send(charKey(c, { alt: true }), advanceMs);
  }

  /** Types each grapheme as its own key press, `stepMs` apart (human speed by default). */
  type(text: string, stepMs = 100): ComposerOutput {
    let out = this.last;
    for (const ch of [...new Intl.Segmenter().segment(text)].map((s) => s.segment)) {
      out = ch === '\n' ? this.key('enter', {}, stepMs) : this.send(charKey(ch), stepMs);
    }
    return out;
  }

  /** Lets a held first character or a burst flush (a tick well after the last key). */
  settle(): ComposerOutput {
    return this.tick(50);
  }

  enter(advanceMs = 100): ComposerOutput {
    return this.key('enter', {}, advanceMs);
  }

  paste(text: string): ComposerOutput {
    return this.send({ type: 'paste', text });
  }

  tick(advanceMs: number): ComposerOutput {
    return this.send({ type: 'tick' }, advanceMs);
  }

  lastResult(): InputResult | undefined {
    return this.results[this.results.length - 1];
  }
}
