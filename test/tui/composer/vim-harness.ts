/**
 * Vim tests through the real composer reducer: a draft with the caret marked `|`, keys in Vim
 * notation (`d2w`, `cwfoo<Esc>`, `<C-r>`, `<CR>`), an injected clock 100 ms per key (human typing:
 * no paste burst), and the result read back in the same notation.
 */
import { composerReducer, initialComposerState, type ComposerState } from '../../../src/tui/composer/reducer.js';
import { setContent, type ElementSpec } from '../../../src/tui/composer/textarea.js';
import { clampNormal } from '../../../src/tui/composer/vim.js';
import { readRegister } from '../../../src/tui/composer/vim/registers.js';
import type { ComposerEvent } from '../../../src/tui/composer/types.js';
import { charKey, key, type KeyEvent } from '../../../src/tui/keys/types.js';
import { noMedia } from './driver.js';

const NAMED: Record<string, KeyEvent> = {
  '<Esc>': key('escape'),
  '<CR>': key('enter'),
  '<C-r>': charKey('r', { ctrl: true }),
  '<Tab>': key('tab'),
  '<BS>': key('backspace'),
  '<Del>': key('delete'),
  '<Up>': key('up'),
  '<Down>': key('down'),
  '<Left>': key('left'),
  '<Right>': key('right'),
  '<lt>': charKey('<'),
};

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `d2w<Esc>` → key events; a `<Name>` from the table is one key, anything else one grapheme per key. */
export function parseKeys(keys: string): KeyEvent[] {
  const out: KeyEvent[] = [];
  const gs = Array.from(segmenter.segment(keys), (s) => s.segment);
  for (let i = 0; i < gs.length; i++) {
    if (gs[i] === '<') {
      const close = gs.indexOf('>', i);
      const name = close > i ? gs.slice(i, close + 1).join('') : '';
      const named = NAMED[name];
      if (named !== undefined) {
        out.push(named);
        i = close;
        continue;
      }
    }
    out.push(charKey(gs[i]!));
  }
  return out;
}

export interface VimSetup {
  elements?: ElementSpec[];
  state?: Partial<ComposerState>;
  escapeSequence?: string;
}

/** A Vim-enabled composer in Normal mode holding `marked` (`|` marks the caret; none: at 0). */
export function vimDraft(marked: string, setup: VimSetup = {}): ComposerState {
  const at = marked.indexOf('|');
  const text = at < 0 ? marked : marked.slice(0, at) + marked.slice(at + 1);
  const base = initialComposerState({ vimEnabled: true, probeMedia: noMedia, vimEscapeSequence: setup.escapeSequence ?? null });
  const ta = setContent(base.ta, text, setup.elements ?? [], at < 0 ? 0 : at);
  return { ...base, ...setup.state, ta: clampNormal(ta) };
}

export class VimRun {
  now = 1_000;
  constructor(public state: ComposerState) {}

  send(event: ComposerEvent, dt = 100): this {
    this.now += dt;
    this.state = composerReducer(this.state, event, this.now).state;
    return this;
  }

  keys(keys: string, dt = 100): this {
    for (const k of parseKeys(keys)) this.send(k, dt);
    // Let a held character flush (a tick well after the last key).
    return this.send({ type: 'tick' }, dt);
  }

  get text(): string {
    return this.state.ta.text;
  }

  /** The draft with `|` at the caret. */
  get marked(): string {
    const { text, cursor } = this.state.ta;
    return `${text.slice(0, cursor)}|${text.slice(cursor)}`;
  }

  get mode(): string {
    return this.state.vim.mode;
  }

  /** A register as Vim's getreg() shows it: linewise text ends with a newline; null when empty. */
  reg(name: string): string | null {
    const r = readRegister(this.state.vim.registers, name === '"' ? null : name);
    return r === null ? null : r.linewise ? `${r.text}\n` : r.text;
  }
}

export function run(marked: string, keys: string, setup: VimSetup = {}): VimRun {
  return new VimRun(vimDraft(marked, setup)).keys(keys);
}
