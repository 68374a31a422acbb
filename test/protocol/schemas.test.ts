import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { V2UserInput } from '../../src/protocol/api.js';
import { fromV2, parseUserInput, parseUserInputs, parseV2UserInputs, toV2 } from '../../src/protocol/schemas.js';
import type { UserInput } from '../../src/protocol/user-input.js';

const all: UserInput[] = [
  { type: 'text', text: 'see [Image #1]', text_elements: [{ byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' }] },
  { type: 'image', image_url: 'https://example.com/a.png', detail: 'low' },
  { type: 'image', image_url: 'data:image/png;base64,AAAA' },
  { type: 'local_image', path: '/tmp/x.png', detail: 'original' },
  { type: 'local_image', path: '/tmp/y.png' },
  { type: 'audio', audio_url: 'data:audio/wav;base64,abc' },
  { type: 'local_audio', path: '/tmp/a.mp3' },
  { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
  { type: 'mention', name: 'docs', path: 'mcp://docs' },
];

const v2: V2UserInput[] = [
  { type: 'text', text: 'see [Image #1]', text_elements: [{ byteRange: { start: 4, end: 14 }, placeholder: '[Image #1]' }] },
  { type: 'image', url: 'https://example.com/a.png', detail: 'low' },
  { type: 'image', url: 'data:image/png;base64,AAAA' },
  { type: 'localImage', path: '/tmp/x.png', detail: 'original' },
  { type: 'localImage', path: '/tmp/y.png' },
  { type: 'audio', url: 'data:audio/wav;base64,abc' },
  { type: 'localAudio', path: '/tmp/a.mp3' },
  { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
  { type: 'mention', name: 'docs', path: 'mcp://docs' },
];

describe('core UserInput schema', () => {
  it('parses every variant from JSON text and from values', () => {
    expect(parseUserInputs(JSON.stringify(all))).toEqual({ ok: true, value: all });
    expect(parseUserInputs(all)).toEqual({ ok: true, value: all });
  });

  it('defaults text_elements to [] and drops null detail/placeholder', () => {
    const parsed = parseUserInputs(
      '[{"type":"text","text":"hi"},{"type":"image","image_url":"u","detail":null},{"type":"text","text":"ab","text_elements":[{"byte_range":{"start":0,"end":1},"placeholder":null}]}]',
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        { type: 'text', text: 'hi', text_elements: [] },
        { type: 'image', image_url: 'u' },
        { type: 'text', text: 'ab', text_elements: [{ byte_range: { start: 0, end: 1 } }] },
      ],
    });
  });

  it('names the field path of a wrong type', () => {
    const parsed = parseUserInputs([
      { type: 'text', text: 'ok', text_elements: [] },
      { type: 'text', text: 'abc', text_elements: [{ byte_range: { start: 0, end: 'x' } }] },
    ]);
    expect(parsed).toEqual({
      ok: false,
      error: {
        path: '[1].text_elements[0].byte_range.end',
        problem: 'expected number, received string',
        message: '[1].text_elements[0].byte_range.end: expected number, received string',
      },
    });
  });

  it('rejects an unknown or missing type, naming it', () => {
    const unknown = parseUserInputs([{ type: 'video', url: 'x' }]);
    expect(!unknown.ok && unknown.error.message).toBe(
      '[0].type: unknown type "video"; expected one of text, image, local_image, audio, local_audio, skill, mention',
    );
    const missing = parseUserInputs([{ text: 'x' }]);
    expect(!missing.ok && missing.error.path).toBe('[0].type');
    expect(!missing.ok && missing.error.problem).toMatch(/^missing type/);
    const long = parseUserInputs([{ type: 'x'.repeat(100) }]);
    expect(!long.ok && long.error.problem).toMatch(/^unknown type "x{38}…; expected/);
    // v2 names are not core names
    const camel = parseUserInputs([{ type: 'localImage', path: '/x' }]);
    expect(!camel.ok && camel.error.path).toBe('[0].type');
  });

  it('rejects a missing field, a bad detail and a non-array', () => {
    const noUrl = parseUserInputs([{ type: 'image' }]);
    expect(!noUrl.ok && noUrl.error.message).toBe('[0].image_url: expected string, received undefined');
    const detail = parseUserInputs([{ type: 'image', image_url: 'u', detail: 'ultra' }]);
    expect(!detail.ok && detail.error.path).toBe('[0].detail');
    const notArray = parseUserInputs({ type: 'text', text: 'x' });
    expect(!notArray.ok && notArray.error.message).toBe('input: expected array, received object');
  });

  it('reports bad JSON without quoting the input', () => {
    const parsed = parseUserInputs('[{"type":"text","text":"secret prompt" x}]');
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.path).toBe('input');
    expect(!parsed.ok && parsed.error.message).toMatch(/^input: invalid JSON/);
    expect(!parsed.ok && parsed.error.message).not.toContain('secret');
    const empty = parseUserInputs('');
    expect(!empty.ok && empty.error.message).toBe('input: invalid JSON');
  });

  it('rejects text element ranges that do not fit the text, at the element path', () => {
    const split = parseUserInputs([{ type: 'text', text: '中文', text_elements: [{ byte_range: { start: 1, end: 3 } }] }]);
    expect(!split.ok && split.error.message).toBe('[0].text_elements[0].byte_range: byte range 1..3 is not on a UTF-8 character boundary');
    const negative = parseUserInputs([{ type: 'text', text: 'ab', text_elements: [{ byte_range: { start: -1, end: 1 } }] }]);
    expect(!negative.ok && negative.error.path).toBe('[0].text_elements[0].byte_range.start');
    const outside = parseUserInputs([{ type: 'text', text: 'ab', text_elements: [{ byte_range: { start: 0, end: 3 } }] }]);
    expect(!outside.ok && outside.error.problem).toBe('byte range 0..3 is outside the text (2 bytes)');
  });

  it('parses a single input, paths without the array index', () => {
    expect(parseUserInput('{"type":"mention","name":"n","path":"app://1"}')).toEqual({
      ok: true,
      value: { type: 'mention', name: 'n', path: 'app://1' },
    });
    const bad = parseUserInput({ type: 'skill', name: 3, path: 'p' });
    expect(!bad.ok && bad.error.message).toBe('name: expected string, received number');
  });
});

describe('v2 UserInput schema and converters', () => {
  it('converts core → v2 → core without loss', () => {
    expect(all.map(toV2)).toEqual(v2);
    expect(v2.map(fromV2)).toEqual(all);
    expect(all.map(toV2).map(fromV2)).toEqual(all);
  });

  it('writes a null placeholder in v2 when the core one is absent', () => {
    expect(toV2({ type: 'text', text: 'ab', text_elements: [{ byte_range: { start: 0, end: 1 } }] })).toEqual({
      type: 'text',
      text: 'ab',
      text_elements: [{ byteRange: { start: 0, end: 1 }, placeholder: null }],
    });
  });

  it('parses v2 JSON, defaulting text_elements and placeholder', () => {
    const parsed = parseV2UserInputs(
      '[{"type":"text","text":"ab","text_elements":[{"byteRange":{"start":0,"end":1}}]},{"type":"text","text":"c"}]',
    );
    expect(parsed).toEqual({
      ok: true,
      value: [
        { type: 'text', text: 'ab', text_elements: [{ byteRange: { start: 0, end: 1 }, placeholder: null }] },
        { type: 'text', text: 'c', text_elements: [] },
      ],
    });
    expect(parseV2UserInputs(v2)).toEqual({ ok: true, value: v2 });
  });

  it('names v2 field paths and rejects core-only names', () => {
    const bad = parseV2UserInputs([{ type: 'text', text: 'x', text_elements: [{ byteRange: { start: 0, end: null } }] }]);
    expect(!bad.ok && bad.error.path).toBe('[0].text_elements[0].byteRange.end');
    const core = parseV2UserInputs([{ type: 'local_image', path: '/x' }]);
    expect(!core.ok && core.error.message).toContain('unknown type "local_image"');
    const negative = parseV2UserInputs([{ type: 'text', text: 'x', text_elements: [{ byteRange: { start: -1, end: 1 } }] }]);
    expect(!negative.ok && negative.error.path).toBe('[0].text_elements[0].byteRange.start');
  });

  it('takes text element ranges that do not fit their text, as Codex, dropping them', () => {
    const el = (start: number, end: number, placeholder: string | null = null) => ({ byteRange: { start, end }, placeholder });
    const text = (t: string, elements: ReturnType<typeof el>[]) => [{ type: 'text', text: t, text_elements: elements }];
    // Past the end, reversed, starting past the end, off a character boundary: dropped; the fitting one stays.
    expect(parseV2UserInputs(text('hello', [el(2, 50, 'x'), el(4, 1), el(40, 50), el(0, 2, 'he')]))).toEqual({
      ok: true,
      value: [{ type: 'text', text: 'hello', text_elements: [el(0, 2, 'he')] }],
    });
    expect(parseV2UserInputs(text('😀 a', [el(0, 2), el(5, 6)]))).toEqual({ ok: true, value: text('😀 a', [el(5, 6)]) });
    // Overlapping: the one starting first stays; touching ends are fine.
    expect(parseV2UserInputs(text('hello', [el(1, 4), el(0, 3), el(3, 5)]))).toEqual({
      ok: true,
      value: text('hello', [el(0, 3), el(3, 5)]),
    });
  });
});

describe('parsing never throws', () => {
  // Shapes close to valid input reach the deeper checks (ranges against text); the rest is noise.
  const nearInput = fc.array(
    fc.record(
      {
        type: fc.constantFrom(
          'text',
          'image',
          'local_image',
          'audio',
          'local_audio',
          'skill',
          'mention',
          'localImage',
          'localAudio',
          'video',
        ),
        text: fc.oneof(fc.string({ unit: 'grapheme' }), fc.anything()),
        text_elements: fc.oneof(
          fc.array(
            fc.record({ byte_range: fc.record({ start: fc.integer({ min: -2, max: 30 }), end: fc.anything() }), byteRange: fc.anything() }),
          ),
          fc.anything(),
        ),
        image_url: fc.anything(),
        url: fc.anything(),
        path: fc.anything(),
        name: fc.anything(),
        detail: fc.anything(),
      },
      { requiredKeys: [] },
    ),
  );

  it('returns a result naming a path for any value or text, core and v2', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), nearInput, fc.string()), (value) => {
        for (const parse of [parseUserInputs, parseV2UserInputs, parseUserInput]) {
          const result = parse(value);
          if (!result.ok) {
            expect(result.error.path.length).toBeGreaterThan(0);
            expect(result.error.message).toBe(`${result.error.path}: ${result.error.problem}`);
            expect(result.error.message).not.toContain('\n');
          }
          const text = parse(JSON.stringify(value) ?? '');
          expect(typeof text.ok).toBe('boolean');
        }
      }),
      { numRuns: 500 },
    );
  });
});
