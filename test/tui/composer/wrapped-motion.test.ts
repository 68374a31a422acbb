import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { charKey } from '../../../src/tui/keys/types.js';
import { layoutText } from '../../../src/tui/composer/layout.js';
import { emptyTextArea, setContent, type ElementSpec, type TextArea } from '../../../src/tui/composer/textarea.js';
import { moveDownWrapped, moveUpWrapped } from '../../../src/tui/composer/wrapped-motion.js';
import { Driver } from './driver.js';

function area(text: string, cursor: number, elements: ElementSpec[] = []): TextArea {
  return setContent(emptyTextArea(), text, elements, cursor);
}

/** Caret positions after pressing Up (or Down) `n` times. */
function walk(ta: TextArea, width: number, dir: 'up' | 'down', n: number): number[] {
  const out: number[] = [];
  let t = ta;
  for (let i = 0; i < n; i++) {
    t = dir === 'up' ? moveUpWrapped(t, width) : moveDownWrapped(t, width);
    out.push(t.cursor);
  }
  return out;
}

describe('Up/Down by wrapped row', () => {
  it('walks the rows of one wrapped line keeping the column, then goes to the start or the end', () => {
    // Rows at width 5: "aaaa " | "bbbb " | "cccc".
    const ta = area('aaaa bbbb cccc', 12);
    expect(walk(ta, 5, 'up', 3)).toEqual([7, 2, 0]);
    expect(walk(area('aaaa bbbb cccc', 2), 5, 'down', 3)).toEqual([7, 12, 14]);
  });

  it('without a width moves by logical line (the whole wrapped line is one line)', () => {
    expect(moveUpWrapped(area('aaaa bbbb cccc', 12), null).cursor).toBe(0);
    expect(moveDownWrapped(area('aaaa bbbb cccc', 2), null).cursor).toBe(14);
  });

  it('stops on the last character of a row that wraps on, never on the wrap point itself', () => {
    // Rows at width 4: "abcd" | "efgh" | "ij"; position 4 would be drawn at the start of row 2.
    expect(moveUpWrapped(area('abcdefghij', 7), 4).cursor).toBe(3);
    expect(moveDownWrapped(area('abcdefghij', 3), 4).cursor).toBe(7);
    const caret = layoutText('abcdefghij', 3, 4).caret;
    expect(caret).toEqual({ row: 0, col: 3 });
  });

  it('keeps the preferred column across a shorter row and across logical lines', () => {
    const text = 'abcdefgh\nab\nabcdefgh';
    expect(walk(area(text, 6), 20, 'down', 2)).toEqual([11, 18]);
    expect(walk(area(text, 18), 20, 'up', 2)).toEqual([11, 6]);
  });

  it('moves from the first row of a line to the last row of the line above', () => {
    // Line 1 wraps at width 5 into "aaaa " | "bb"; line 2 is "cccc".
    const text = 'aaaa bb\ncccc';
    expect(moveUpWrapped(area(text, 9), 5).cursor).toBe(6);
    expect(moveDownWrapped(area(text, 6), 5).cursor).toBe(9);
  });

  it('measures columns in display cells (CJK is two cells wide)', () => {
    // Rows at width 4: "你好" | "世界" | "你好".
    const text = '你好世界你好';
    expect(moveUpWrapped(area(text, 5), 4).cursor).toBe(3);
    expect(moveDownWrapped(area(text, 1), 4).cursor).toBe(3);
  });

  it('never lands inside an element and always makes progress past one that spans rows', () => {
    const image: ElementSpec = { start: 11, end: 21, kind: 'image' };
    expect(moveDownWrapped(area('0123456789\n[Image #1]', 5, [image]), 20).cursor).toBe(11);
    // The paste label wraps over several rows at width 10: Down from inside its rows jumps past it.
    const label = '[Pasted Content 1200 chars]';
    const text = `ab ${label} cd`;
    const paste: ElementSpec = { start: 3, end: 3 + label.length, kind: 'paste' };
    const down = walk(area(text, 0, [paste]), 10, 'down', 3);
    expect(down[0]).toBe(3);
    expect(down[1]).toBe(3 + label.length);
    for (const pos of down) expect(pos <= 3 || pos >= 3 + label.length).toBe(true);
    const up = moveUpWrapped(area(text, 3 + label.length, [paste]), 10).cursor;
    expect(up <= 3).toBe(true);
  });
});

describe('composer: setWidth and wrapped rows', () => {
  function typedLong(width: number | null): Driver {
    const d = new Driver();
    d.type('one');
    d.enter();
    if (width !== null) d.send({ type: 'setWidth', width });
    d.type('aaaa bbbb cccc');
    d.settle();
    return d;
  }

  it('Up walks the wrapped rows of a typed draft; the draft stays (no history recall)', () => {
    const d = typedLong(5);
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      d.key('up');
      seen.push(d.cursor);
    }
    expect(seen).toEqual([9, 4, 0, 0]);
    expect(d.text).toBe('aaaa bbbb cccc');
    for (const expected of [5, 10, 14]) {
      d.key('down');
      expect(d.cursor).toBe(expected);
    }
  });

  it('without a width Up goes straight to the start of the single logical line', () => {
    const d = typedLong(null);
    d.key('up');
    expect(d.cursor).toBe(0);
  });

  it('Ctrl+P and Ctrl+N move by wrapped row too', () => {
    const d = typedLong(5);
    d.ctrl('p');
    expect(d.cursor).toBe(9);
    d.ctrl('n');
    expect(d.cursor).toBe(14);
  });

  it('a recalled multi-row entry is walked row by row; history moves on only from its first row start', () => {
    const d = new Driver();
    d.send({ type: 'setWidth', width: 5 });
    for (const entry of ['older', 'aaaa bbbb cccc']) {
      d.type(entry);
      d.enter();
    }
    d.key('up');
    expect(d.text).toBe('aaaa bbbb cccc');
    d.key('left');
    d.key('up');
    expect([d.text, d.cursor]).toEqual(['aaaa bbbb cccc', 8]);
    d.key('up');
    expect(d.cursor).toBe(3);
    d.key('up');
    expect([d.text, d.cursor]).toEqual(['aaaa bbbb cccc', 0]);
    d.key('up');
    expect(d.text).toBe('older');
  });

  it('Vim j/k in Normal mode move by wrapped row', () => {
    const d = new Driver({ vimEnabled: true });
    d.send({ type: 'setWidth', width: 5 });
    d.send(charKey('i'));
    d.type('aaaa bbbb cccc');
    d.settle();
    d.key('escape');
    expect(d.cursor).toBe(13);
    const seen: number[] = [];
    for (const k of ['k', 'k', 'j', 'j', 'j']) {
      d.send(charKey(k));
      seen.push(d.cursor);
    }
    expect(seen).toEqual([8, 3, 8, 13, 13]);
  });

  it('setWidth keeps at least one cell', () => {
    const d = new Driver();
    d.send({ type: 'setWidth', width: 0 });
    expect(d.state.width).toBe(1);
  });
});

describe('wrapped-row motion properties', () => {
  const pieces = fc.constantFrom('a', 'b', ' ', '  ', '\n', '你', '😀', 'e\u0301', '\t', '\u001b', 'word ', 'x'.repeat(7));

  /** The row (over the whole layout) a position is drawn on when the caret is not there. */
  function rowOf(text: string, width: number, pos: number): number {
    const rows = layoutText(text, 0, width).rows;
    let r = 0;
    while (r + 1 < rows.length && rows[r + 1]!.start <= pos) r++;
    return r;
  }

  it('Up goes exactly one row up (or to the start from the first row); Down one row down (or to the end)', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 25 }), fc.integer({ min: 1, max: 12 }), fc.nat(), (parts, width, at) => {
        const text = parts.join('');
        const ta = setContent(emptyTextArea(), text, [], at % (text.length + 1));
        const row = rowOf(text, width, ta.cursor);
        const last = rowOf(text, width, text.length);
        const up = moveUpWrapped(ta, width).cursor;
        if (row === 0) expect(up).toBe(0);
        else expect(rowOf(text, width, up)).toBe(row - 1);
        const down = moveDownWrapped(ta, width).cursor;
        if (row === last) expect(down).toBe(text.length);
        else expect(rowOf(text, width, down)).toBe(row + 1);
      }),
      { numRuns: 2000 },
    );
  });

  it('with elements, the caret never lands inside one and always moves (Up back, Down forward)', () => {
    const label = fc.constantFrom('[Image #1]', '[Pasted Content 1200 chars]', '$deploy');
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }),
        label,
        fc.array(pieces, { maxLength: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        (before, el, rest, width, at) => {
          const head = before.join('');
          const text = `${head}${el}${rest.join('')}`;
          const spec: ElementSpec = { start: head.length, end: head.length + el.length, kind: 'paste' };
          const ta = setContent(emptyTextArea(), text, [spec], at % (text.length + 1));
          const outside = (pos: number): boolean => pos <= spec.start || pos >= spec.end;
          const up = moveUpWrapped(ta, width).cursor;
          const down = moveDownWrapped(ta, width).cursor;
          expect(outside(up) && outside(down)).toBe(true);
          expect(up < ta.cursor || up === 0).toBe(true);
          expect(down > ta.cursor || down === text.length).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
