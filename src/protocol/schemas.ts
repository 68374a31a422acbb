/**
 * zod schemas for UserInput at the boundaries: the core JSON shape (snake_case, docs/codex-parity.md#userinput-shapes)
 * and the app-server v2 shape (camelCase variant names, `byteRange`, docs/codex-parity.md#requests-and-results),
 * plus converters.
 * Parsing returns a typed result whose error names the field path; nothing here throws.
 */
import { z } from 'zod';
import type { V2TextElement, V2UserInput } from './api.js';
import { TOO_DEEP_PROBLEM, tooDeepPath, tooDeepWhere } from './json-depth.js';
import { fittingTextElements, validateTextElements } from './text-element.js';
import type { TextElement, UserInput } from './user-input.js';

export const imageDetailSchema = z.enum(['auto', 'low', 'high', 'original']);

const byteOffset = z.number().int().nonnegative();

export const byteRangeSchema = z.object({ start: byteOffset, end: byteOffset });

export const textElementSchema = z.object({
  byte_range: byteRangeSchema,
  placeholder: z.string().nullish(),
});

export const userInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), text_elements: z.array(textElementSchema).default([]) }),
  z.object({ type: z.literal('image'), image_url: z.string(), detail: imageDetailSchema.nullish() }),
  z.object({ type: z.literal('local_image'), path: z.string(), detail: imageDetailSchema.nullish() }),
  z.object({ type: z.literal('audio'), audio_url: z.string() }),
  z.object({ type: z.literal('local_audio'), path: z.string() }),
  z.object({ type: z.literal('skill'), name: z.string(), path: z.string() }),
  z.object({ type: z.literal('mention'), name: z.string(), path: z.string() }),
]);

export const userInputsSchema = z.array(userInputSchema);

export const v2TextElementSchema = z.object({
  byteRange: byteRangeSchema,
  placeholder: z
    .string()
    .nullish()
    .transform((p) => p ?? null),
});

const oneSource = (v: { url?: string | undefined; fileId?: string | undefined }): boolean =>
  (v.url === undefined) !== (v.fileId === undefined);
const ONE_SOURCE = { message: 'expected exactly one of url and fileId' };

export const v2UserInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), text_elements: z.array(v2TextElementSchema).default([]) }),
  // By URL or, uploaded to the provider, by Files API id: exactly one (as Codex).
  z
    .object({ type: z.literal('image'), url: z.string().optional(), fileId: z.string().optional(), detail: imageDetailSchema.nullish() })
    .refine(oneSource, ONE_SOURCE),
  z.object({ type: z.literal('localImage'), path: z.string(), detail: imageDetailSchema.nullish() }),
  z.object({ type: z.literal('audio'), url: z.string().optional(), fileId: z.string().optional() }).refine(oneSource, ONE_SOURCE),
  z.object({ type: z.literal('localAudio'), path: z.string() }),
  z.object({ type: z.literal('skill'), name: z.string(), path: z.string() }),
  z.object({ type: z.literal('mention'), name: z.string(), path: z.string() }),
]);

export const v2UserInputsSchema = z.array(v2UserInputSchema);

export interface SchemaError {
  /** The offending field, e.g. `[1].text_elements[0].byte_range.end`; `input` for the whole value. */
  path: string;
  /** What is wrong there, e.g. `expected number, received string`. */
  problem: string;
  /** `path: problem`, one line. */
  message: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: SchemaError };

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'input' : out;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function schemaError(path: ReadonlyArray<PropertyKey>, problem: string): SchemaError {
  const where = formatPath(path);
  return { path: where, problem, message: `${where}: ${problem}` };
}

function describeIssue(issue: z.core.$ZodIssue, root: unknown): SchemaError {
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator !== undefined) {
    const given = valueAt(root, issue.path);
    const options = ('options' in issue ? (issue.options ?? []) : []).map(String).join(', ');
    const shown = JSON.stringify(given) ?? String(given);
    const what = given === undefined ? 'missing type' : `unknown type ${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown}`;
    return schemaError(issue.path, `${what}; expected one of ${options}`);
  }
  return schemaError(issue.path, issue.message.replace(/^Invalid input: /, ''));
}

/** Range checks (in the text, ordered, on char boundaries, disjoint), reported at the element's path. */
function checkRanges(items: ReadonlyArray<{ type: string; text?: string; text_elements?: readonly TextElement[] }>): SchemaError | null {
  for (const [i, item] of items.entries()) {
    if (item.type !== 'text' || item.text === undefined || item.text_elements === undefined) continue;
    const check = validateTextElements(item.text, item.text_elements);
    if (!check.ok) return schemaError([i, 'text_elements', check.index, 'byte_range'], check.problem);
  }
  return null;
}

function decodeJson(input: unknown): ParseResult<unknown> {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch (error) {
      // V8's message quotes a piece of the input, which may be prompt text: keep only the position.
      const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
      const problem = position === undefined ? 'invalid JSON' : `invalid JSON at position ${position}`;
      return { ok: false, error: schemaError([], problem) };
    }
  }
  const deep = tooDeepPath(value);
  if (deep === null) return { ok: true, value };
  const where = tooDeepWhere(deep, formatPath);
  return { ok: false, error: { path: where, problem: TOO_DEEP_PROBLEM, message: `${where}: ${TOO_DEEP_PROBLEM}` } };
}

/** Strips the optional/nullable noise zod leaves, so values equal what a caller would write. */
function cleanCore(input: z.output<typeof userInputSchema>): UserInput {
  switch (input.type) {
    case 'text':
      return {
        type: 'text',
        text: input.text,
        text_elements: input.text_elements.map((el) => ({
          byte_range: { start: el.byte_range.start, end: el.byte_range.end },
          ...(el.placeholder != null ? { placeholder: el.placeholder } : {}),
        })),
      };
    case 'image':
      return { type: 'image', image_url: input.image_url, ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'local_image':
      return { type: 'local_image', path: input.path, ...(input.detail != null ? { detail: input.detail } : {}) };
    default:
      return input;
  }
}

/**
 * Parses core-shape `UserInput[]` from JSON text or an already-decoded value (a string is always
 * taken as JSON text). Text element ranges are validated against their text.
 */
export function parseUserInputs(json: unknown): ParseResult<UserInput[]> {
  const decoded = decodeJson(json);
  if (!decoded.ok) return decoded;
  const parsed = userInputsSchema.safeParse(decoded.value);
  if (!parsed.success) return { ok: false, error: describeIssue(parsed.error.issues[0]!, decoded.value) };
  const value = parsed.data.map(cleanCore);
  const rangeError = checkRanges(value);
  return rangeError ? { ok: false, error: rangeError } : { ok: true, value };
}

/** One core-shape UserInput (not an array). */
export function parseUserInput(json: unknown): ParseResult<UserInput> {
  const decoded = decodeJson(json);
  if (!decoded.ok) return decoded;
  const parsed = parseUserInputs([decoded.value]);
  if (parsed.ok) return { ok: true, value: parsed.value[0]! };
  // Drop the `[0]` the array wrapper added.
  const path = parsed.error.path.replace(/^\[0\]\.?/, '') || 'input';
  return { ok: false, error: { path, problem: parsed.error.problem, message: `${path}: ${parsed.error.problem}` } };
}

/** Parses v2-shape `UserInput[]` (app-server params) from JSON text or a decoded value; text element ranges that do not fit are dropped. */
export function parseV2UserInputs(json: unknown): ParseResult<V2UserInput[]> {
  const decoded = decodeJson(json);
  if (!decoded.ok) return decoded;
  const parsed = v2UserInputsSchema.safeParse(decoded.value);
  if (!parsed.success) return { ok: false, error: describeIssue(parsed.error.issues[0]!, decoded.value) };
  // As Codex, ranges that do not fit their text are no error; Tiller drops them (docs/codex-parity.md#different-on-purpose).
  const value = parsed.data.map((item) => {
    const core = fromV2(item as V2UserInput);
    return toV2(core.type === 'text' ? { ...core, text_elements: fittingTextElements(core.text, core.text_elements) } : core);
  });
  return { ok: true, value };
}

function toV2TextElement(el: TextElement): V2TextElement {
  return { byteRange: { start: el.byte_range.start, end: el.byte_range.end }, placeholder: el.placeholder ?? null };
}

function fromV2TextElement(el: V2TextElement): TextElement {
  return {
    byte_range: { start: el.byteRange.start, end: el.byteRange.end },
    ...(el.placeholder != null ? { placeholder: el.placeholder } : {}),
  };
}

/** Core → v2 (app-server wire shape). */
export function toV2(input: UserInput): V2UserInput {
  switch (input.type) {
    case 'text':
      return { type: 'text', text: input.text, text_elements: input.text_elements.map(toV2TextElement) };
    case 'image':
      return { type: 'image', url: input.image_url, ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'image_file':
      return { type: 'image', fileId: input.file_id, ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'local_image':
      return { type: 'localImage', path: input.path, ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'audio':
      return { type: 'audio', url: input.audio_url };
    case 'audio_file':
      return { type: 'audio', fileId: input.file_id };
    case 'local_audio':
      return { type: 'localAudio', path: input.path };
    case 'skill':
      return { type: 'skill', name: input.name, path: input.path };
    case 'mention':
      return { type: 'mention', name: input.name, path: input.path };
  }
}

/** v2 (app-server wire shape) → core. */
export function fromV2(input: V2UserInput): UserInput {
  switch (input.type) {
    case 'text':
      return { type: 'text', text: input.text, text_elements: (input.text_elements ?? []).map(fromV2TextElement) };
    case 'image':
      if (input.fileId !== undefined)
        return { type: 'image_file', file_id: input.fileId, ...(input.detail != null ? { detail: input.detail } : {}) };
      return { type: 'image', image_url: input.url ?? '', ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'localImage':
      return { type: 'local_image', path: input.path, ...(input.detail != null ? { detail: input.detail } : {}) };
    case 'audio':
      if (input.fileId !== undefined) return { type: 'audio_file', file_id: input.fileId };
      return { type: 'audio', audio_url: input.url ?? '' };
    case 'localAudio':
      return { type: 'local_audio', path: input.path };
    case 'skill':
      return { type: 'skill', name: input.name, path: input.path };
    case 'mention':
      return { type: 'mention', name: input.name, path: input.path };
  }
}
