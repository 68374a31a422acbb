import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESC_TIMEOUT_MS, KeyParser, PASTE_STALL_TIMEOUT_MS } from '../../../src/tui/keys/parser.js';
import { charKey, key, type TerminalEvent } from '../../../src/tui/keys/types.js';

/** Feeds one chunk at t=0 and resolves any timeout, as the app's timer would. */
function parse(input: string | Buffer): TerminalEvent[] {
  const p = new KeyParser();
  const out = p.feed(input, 0);
  const wait = p.pendingTimeoutMs(0);
  if (wait !== null) out.push(...p.flushTimeout(wait));
  return out;
}

function chars(s: string) {
  return [...s].map((c) => charKey(c));
}

describe('KeyParser printable text', () => {
  it('splits text into one key per character', () => {
    expect(parse('ab c')).toEqual(chars('ab c'));
  });

  it('keeps graphemes whole (ZWJ emoji, combining marks, CJK)', () => {
    const family = '👨‍👩‍👧';
    const eAcute = 'e\u0301';
    expect(parse(`${family}${eAcute}你好`)).toEqual([charKey(family), charKey(eAcute), charKey('你'), charKey('好')]);
  });

  it('keeps clusters whole in long non-ASCII stretches', () => {
    const family = '👨‍👩‍👧';
    const text = `a${family.repeat(30)}${'e\u0301'.repeat(50)}你${'好'.repeat(100)}z`;
    const out = parse(text);
    const expected = ['a', ...Array(30).fill(family), ...Array(50).fill('e\u0301'), '你', ...Array(100).fill('好'), 'z'];
    expect(out).toEqual(expected.map((g) => charKey(g)));
  });

  it('handles a 1 MiB unbracketed paste in one chunk', () => {
    const out = parse('y'.repeat(1024 * 1024));
    expect(out).toHaveLength(1024 * 1024);
    expect(out[0]).toEqual(charKey('y'));
  });

  it('decodes UTF-8 split across chunks', () => {
    const bytes = Buffer.from('é你😀', 'utf8');
    const p = new KeyParser();
    const out: TerminalEvent[] = [];
    for (const b of bytes) out.push(...p.feed(Buffer.from([b]), 0));
    expect(out).toEqual([charKey('é'), charKey('你'), charKey('😀')]);
    expect(p.pendingTimeoutMs()).toBeNull();
  });
});

describe('KeyParser control characters', () => {
  it('maps CR to Enter and LF to Ctrl+J, keeping them distinct', () => {
    expect(parse('\r')).toEqual([key('enter')]);
    expect(parse('\n')).toEqual([charKey('j', { ctrl: true })]);
    // No CR LF merging: the result must not depend on where a read splits the bytes.
    expect(parse('a\r\nb')).toEqual([charKey('a'), key('enter'), charKey('j', { ctrl: true }), charKey('b')]);
  });

  it('maps Tab, DEL and BS', () => {
    expect(parse('\t')).toEqual([key('tab')]);
    expect(parse('\x7f')).toEqual([key('backspace')]);
    expect(parse('\b')).toEqual([key('backspace')]);
  });

  it('maps Ctrl+letters to lower-case chars with ctrl', () => {
    expect(parse('\x01\x03\x12\x1a')).toEqual([
      charKey('a', { ctrl: true }),
      charKey('c', { ctrl: true }),
      charKey('r', { ctrl: true }),
      charKey('z', { ctrl: true }),
    ]);
    expect(parse('\x00')).toEqual([charKey(' ', { ctrl: true })]);
    expect(parse('\x1f')).toEqual([charKey('_', { ctrl: true })]);
  });
});

describe('KeyParser Escape and Alt', () => {
  it('reports a lone Esc only after the timeout', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b', 100)).toEqual([]);
    expect(p.pendingTimeoutMs(100)).toBe(ESC_TIMEOUT_MS);
    expect(p.pendingTimeoutMs(130)).toBe(20);
    expect(p.flushTimeout(149)).toEqual([]);
    expect(p.flushTimeout(150)).toEqual([key('escape')]);
    expect(p.pendingTimeoutMs(150)).toBeNull();
  });

  it('joins an ESC with a follow-up chunk before the timeout', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b', 0)).toEqual([]);
    expect(p.feed('[A', 10)).toEqual([key('up')]);
    expect(p.pendingTimeoutMs()).toBeNull();
  });

  it('treats ESC + char as Alt+char', () => {
    expect(parse('\x1bb')).toEqual([charKey('b', { alt: true })]);
    expect(parse('\x1bé')).toEqual([charKey('é', { alt: true })]);
  });

  it('treats ESC + CR as Alt+Enter and ESC + DEL as Alt+Backspace', () => {
    expect(parse('\x1b\r')).toEqual([key('enter', { alt: true })]);
    expect(parse('\x1b\x7f')).toEqual([key('backspace', { alt: true })]);
    expect(parse('\x1b\x08')).toEqual([key('backspace', { alt: true })]);
  });

  it('treats ESC ESC + sequence as Alt+key, and ESC ESC alone as two Escapes', () => {
    expect(parse('\x1b\x1b[A')).toEqual([key('up', { alt: true })]);
    expect(parse('\x1b\x1b')).toEqual([key('escape'), key('escape')]);
    expect(parse('\x1b\x1bx')).toEqual([key('escape'), charKey('x', { alt: true })]);
  });

  it('resolves an unfinished ESC [ as Alt+[ and ESC O as Alt+O', () => {
    expect(parse('\x1b[')).toEqual([charKey('[', { alt: true })]);
    expect(parse('\x1bO')).toEqual([charKey('O', { alt: true })]);
  });
});

describe('KeyParser CSI keys', () => {
  it('decodes arrows and Home/End in both forms', () => {
    expect(parse('\x1b[A\x1b[B\x1b[C\x1b[D')).toEqual([key('up'), key('down'), key('right'), key('left')]);
    expect(parse('\x1b[H\x1b[F')).toEqual([key('home'), key('end')]);
    expect(parse('\x1b[1~\x1b[4~\x1b[7~\x1b[8~')).toEqual([key('home'), key('end'), key('home'), key('end')]);
  });

  it('decodes Insert/Delete/PageUp/PageDown', () => {
    expect(parse('\x1b[2~\x1b[3~\x1b[5~\x1b[6~')).toEqual([key('insert'), key('delete'), key('pageup'), key('pagedown')]);
  });

  it('decodes modifiers on arrows and tilde keys', () => {
    expect(parse('\x1b[1;5A')).toEqual([key('up', { ctrl: true })]);
    expect(parse('\x1b[1;3D')).toEqual([key('left', { alt: true })]);
    expect(parse('\x1b[1;2D')).toEqual([key('left', { shift: true })]);
    expect(parse('\x1b[1;8C')).toEqual([key('right', { shift: true, alt: true, ctrl: true })]);
    expect(parse('\x1b[3;5~')).toEqual([key('delete', { ctrl: true })]);
    expect(parse('\x1b[1;9A')).toEqual([key('up', { meta: true })]);
  });

  it('decodes F-keys', () => {
    expect(parse('\x1bOP\x1bOS')).toEqual([key('f', { fn: 1 }), key('f', { fn: 4 })]);
    expect(parse('\x1b[15~\x1b[24~')).toEqual([key('f', { fn: 5 }), key('f', { fn: 12 })]);
    expect(parse('\x1b[1;2P')).toEqual([key('f', { fn: 1, shift: true })]);
    expect(parse('\x1b[[A\x1b[[E')).toEqual([key('f', { fn: 1 }), key('f', { fn: 5 })]);
  });

  it('decodes Shift+Tab', () => {
    expect(parse('\x1b[Z')).toEqual([key('backtab', { shift: true })]);
  });

  it('decodes SS3 application keys', () => {
    expect(parse('\x1bOA\x1bOD\x1bOH\x1bOF')).toEqual([key('up'), key('left'), key('home'), key('end')]);
    expect(parse('\x1bOM')).toEqual([key('enter')]);
    expect(parse('\x1bOp\x1bOk')).toEqual([charKey('0'), charKey('+')]);
    expect(parse('\x1bO5A')).toEqual([key('up', { ctrl: true })]);
  });

  it('joins a sequence split over chunks', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b[1', 0)).toEqual([]);
    expect(p.feed(';5', 1)).toEqual([]);
    expect(p.feed('Cx', 2)).toEqual([key('right', { ctrl: true }), charKey('x')]);
  });
});

describe('KeyParser kitty CSI-u', () => {
  it('decodes Shift+Enter, Alt+Enter, Ctrl+Enter', () => {
    expect(parse('\x1b[13;2u')).toEqual([key('enter', { shift: true })]);
    expect(parse('\x1b[13;3u')).toEqual([key('enter', { alt: true })]);
    expect(parse('\x1b[13;5u')).toEqual([key('enter', { ctrl: true })]);
  });

  it('decodes Esc, Tab, Backspace and Ctrl+letters', () => {
    expect(parse('\x1b[27u')).toEqual([key('escape')]);
    expect(parse('\x1b[9u')).toEqual([key('tab')]);
    expect(parse('\x1b[9;2u')).toEqual([key('backtab', { shift: true })]);
    expect(parse('\x1b[127;5u')).toEqual([key('backspace', { ctrl: true })]);
    expect(parse('\x1b[99;5u')).toEqual([charKey('c', { ctrl: true })]);
    expect(parse('\x1b[106;5u')).toEqual([charKey('j', { ctrl: true })]);
    expect(parse('\x1b[97;3u')).toEqual([charKey('a', { alt: true })]);
  });

  it('uses the shifted key when given, else upper-cases letters with Shift alone', () => {
    expect(parse('\x1b[97;2u')).toEqual([charKey('A', { shift: true })]);
    expect(parse('\x1b[49:33;2u')).toEqual([charKey('!', { shift: true })]);
    expect(parse('\x1b[97;6u')).toEqual([charKey('a', { shift: true, ctrl: true })]);
  });

  it('decodes press, repeat and release event types', () => {
    expect(parse('\x1b[97;1:1u')).toEqual([charKey('a')]);
    expect(parse('\x1b[97;1:2u')).toEqual([charKey('a', { kind: 'repeat' })]);
    expect(parse('\x1b[13;2:3u')).toEqual([key('enter', { shift: true, kind: 'release' })]);
    expect(parse('\x1b[1;1:3A')).toEqual([key('up', { kind: 'release' })]);
  });

  it('maps keypad private-use codes and drops modifier-key codes', () => {
    expect(parse('\x1b[57414u')).toEqual([key('enter')]);
    expect(parse('\x1b[57399u')).toEqual([charKey('0')]);
    expect(parse('\x1b[57441;2u')).toEqual([]);
  });
});

describe('KeyParser xterm modifyOtherKeys', () => {
  it('decodes CSI 27;mods;code~', () => {
    expect(parse('\x1b[27;2;13~')).toEqual([key('enter', { shift: true })]);
    expect(parse('\x1b[27;3;13~')).toEqual([key('enter', { alt: true })]);
    expect(parse('\x1b[27;5;106~')).toEqual([charKey('j', { ctrl: true })]);
    expect(parse('\x1b[27;5;9~')).toEqual([key('tab', { ctrl: true })]);
  });
});

describe('KeyParser bracketed paste', () => {
  it('delivers a paste as one event with its raw contents', () => {
    expect(parse('\x1b[200~hello\r\nworld\x1b[A\x1b[201~')).toEqual([{ type: 'paste', text: 'hello\r\nworld\x1b[A' }]);
  });

  it('keeps keys before and after the paste in order', () => {
    expect(parse('a\x1b[200~xy\x1b[201~b')).toEqual([charKey('a'), { type: 'paste', text: 'xy' }, charKey('b')]);
  });

  it('assembles a paste split over many chunks, including split markers', () => {
    const whole = '\x1b[200~multi\nline 你好\x1b[201~\r';
    for (let size = 1; size <= 8; size++) {
      const p = new KeyParser();
      const out: TerminalEvent[] = [];
      const bytes = Buffer.from(whole, 'utf8');
      for (let i = 0; i < bytes.length; i += size) out.push(...p.feed(bytes.subarray(i, i + size), i));
      expect(out).toEqual([{ type: 'paste', text: 'multi\nline 你好' }, key('enter')]);
    }
  });

  it('does not end the paste on a partial end marker inside the data', () => {
    expect(parse('\x1b[200~a\x1b[201b\x1b[201~')).toEqual([{ type: 'paste', text: 'a\x1b[201b' }]);
  });

  it('handles an empty paste', () => {
    expect(parse('\x1b[200~\x1b[201~')).toEqual([{ type: 'paste', text: '' }]);
  });

  it('assembles a 1 MiB paste in 4 KiB chunks quickly', () => {
    const body = 'x'.repeat(1024 * 1024 - 1) + '\n';
    const p = new KeyParser();
    const events: TerminalEvent[] = [];
    events.push(...p.feed('\x1b[200~', 0));
    for (let i = 0; i < body.length; i += 4096) events.push(...p.feed(body.slice(i, i + 4096), 0));
    events.push(...p.feed('\x1b[201~', 0));
    expect(events).toHaveLength(1);
    const ev = events[0];
    expect(ev?.type === 'paste' && ev.text.length).toBe(body.length);
  });

  it('waits for a stalled paste, then delivers what arrived', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b[200~partial', 0)).toEqual([]);
    expect(p.pendingTimeoutMs(0)).toBe(PASTE_STALL_TIMEOUT_MS);
    expect(p.flushTimeout(ESC_TIMEOUT_MS)).toEqual([]);
    expect(p.flushTimeout(PASTE_STALL_TIMEOUT_MS)).toEqual([{ type: 'paste', text: 'partial' }]);
    expect(p.feed('z', PASTE_STALL_TIMEOUT_MS + 1)).toEqual([charKey('z')]);
  });

  it('drops a stray paste end marker', () => {
    expect(parse('a\x1b[201~b')).toEqual(chars('ab'));
  });
});

describe('KeyParser focus reports', () => {
  const focusIn = { type: 'focus', focused: true };
  const focusOut = { type: 'focus', focused: false };

  it('turns CSI I and CSI O into focus events, never text', () => {
    expect(parse('\x1b[Ia\x1b[O')).toEqual([focusIn, charKey('a'), focusOut]);
    expect(parse('\x1b[O\x1b[I')).toEqual([focusOut, focusIn]);
  });

  it('assembles a report split across reads', () => {
    const p = new KeyParser();
    expect(p.feed('\x1b', 0)).toEqual([]);
    expect(p.feed('[', 1)).toEqual([]);
    expect(p.feed('Ob', 2)).toEqual([focusOut, charKey('b')]);
  });

  it('keeps SS3 O and keys with parameters apart from focus reports', () => {
    // ESC O P is F1 (SS3), CSI 1;2P is Shift+F1: neither is a focus report.
    expect(parse('\x1bOP\x1b[1;2P')).toEqual([key('f', { fn: 1 }), key('f', { fn: 1, shift: true })]);
    expect(parse('\x1b[2I\x1b[?O')).toEqual([]);
  });
});

describe('KeyParser drops what is not a key', () => {
  it('drops unknown CSI sequences and terminal replies', () => {
    expect(parse('\x1b[99Xa')).toEqual([charKey('a')]);
    expect(parse('\x1b[?1u\x1b[?2004;1$y')).toEqual([]);
    expect(parse('\x1b[<0;10;20M')).toEqual([]);
    expect(parse('\x1b[12;40R')).toEqual([]);
  });

  it('drops OSC / DCS strings ended by BEL or ST, but for the background colour answer, which is an event', () => {
    expect(parse('\x1b]4;1;rgb:ffff/0000/0000\x07a')).toEqual([charKey('a')]);
    expect(parse('\x1b]11;rgb:0000/0000/0000\x07a')).toEqual([{ type: 'background', rgb: [0, 0, 0] }, charKey('a')]);
    expect(parse('\x1bP1$r0m\x1b\\b')).toEqual([charKey('b')]);
  });

  it('drops a malformed CSI and resumes at the byte that broke it', () => {
    expect(parse('\x1b[1;\rx')).toEqual([key('enter'), charKey('x')]);
  });

  it('drops an unfinished sequence at the timeout instead of inserting it', () => {
    expect(parse('\x1b[1;5')).toEqual([]);
  });

  it('drops an overlong sequence whole', () => {
    expect(parse(`\x1b[${'1;'.repeat(200)}Ab`)).toEqual([charKey('b')]);
    expect(parse(`\x1b[${'9'.repeat(500)}~c`)).toEqual([charKey('c')]);
  });

  it('drops key sequences with too many parameters', () => {
    expect(parse('\x1b[1;5;3A\x1b[3;5;1~')).toEqual([]);
  });
});

describe('KeyParser properties', () => {
  const tokens = [
    'a',
    'Z',
    ' ',
    '你',
    '😀',
    '\r',
    '\n',
    '\t',
    '\x7f',
    '\x03',
    '\x1b[A',
    '\x1b[1;5C',
    '\x1b[3~',
    '\x1bOP',
    '\x1b[13;2u',
    '\x1b[27;2;13~',
    '\x1bb',
    '\x1b\r',
    '\x1b[200~pa\x1b[Aste\r\n\x1b[201~',
    '\x1b[I',
    '\x1b]0;t\x07',
  ];

  it('gives the same events however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...tokens), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (toks, sizes) => {
          const bytes = Buffer.from(toks.join(''), 'utf8');
          const whole = new KeyParser().feed(bytes, 0);
          const p = new KeyParser();
          const split: TerminalEvent[] = [];
          let i = 0;
          let k = 0;
          while (i < bytes.length) {
            const n = sizes[k++ % sizes.length] ?? 1;
            split.push(...p.feed(bytes.subarray(i, i + n), 0));
            i += n;
          }
          expect(split).toEqual(whole);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('splits printable text into the same graphemes as Intl.Segmenter over the whole text', () => {
    const pool = ['a', 'Z', ' ', '~', 'é', 'e\u0301', '你', '😀', '👨‍👩‍👧', '🇺🇸', '🇬', 'ก', 'ำ', '\u200d', '\u0301'];
    const seg = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pool), { maxLength: 200 }), (parts) => {
        const text = parts.join('');
        const got = parse(text).map((ev) => (ev.type === 'key' ? ev.char : null));
        expect(got).toEqual(Array.from(seg.segment(text), (x) => x.segment));
      }),
      { numRuns: 300 },
    );
  });

  it('never turns control bytes or escape sequences into inserted text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (arr) => {
        const out = parse(Buffer.from(arr));
        for (const ev of out) {
          if (ev.type === 'key' && ev.name === 'char') expect(ev.char ?? '').not.toMatch(/[\x00-\x1f\x7f]/);
        }
      }),
    );
  });
});
