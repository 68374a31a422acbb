/** Reading damaged rollouts: a torn last line, garbage lines, unknown records and versions; preparing one to be appended to. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/runtime/core/ids.js';
import { ROLLOUT_VERSION, type RolloutLine } from '../../src/runtime/rollout/format.js';
import { readRollout, RolloutReadError } from '../../src/runtime/rollout/reader.js';
import { prepareForAppend } from '../../src/runtime/rollout/writer.js';
import { tempDir } from './support/harness.js';
import { writeSyntheticRollout } from './support/synthetic-rollout.js';

const threadId = newId();
const header: RolloutLine = {
  type: 'header',
  version: ROLLOUT_VERSION,
  threadId,
  sessionId: threadId,
  cwd: '/w',
  model: 'm',
  provider: 'p',
  createdAt: 1,
  cliVersion: '0',
  source: 'exec',
  forkedFromId: null,
};
const entry = (text: string): RolloutLine => ({
  type: 'history',
  turnId: null,
  entry: { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } },
});

function file(text: string): string {
  const path = join(tempDir(), 'rollout.jsonl');
  writeFileSync(path, text);
  return path;
}
const json = (...lines: RolloutLine[]): string => lines.map((line) => `${JSON.stringify(line)}\n`).join('');
const texts = async (path: string) =>
  (await readRollout({ kind: 'file', path })).snapshot.history.map((h) =>
    h.type === 'item' && h.item.type === 'message' ? (h.item.content[0] as { text: string }).text : '',
  );

describe('readRollout on damaged files', () => {
  it('a torn last line is skipped with a warning; prepareForAppend cuts it off', async () => {
    const whole = json(header, entry('one'), entry('two'));
    const path = file(`${whole}{"type":"history","turnId":null,"entry":{"ty`);
    const read = await readRollout({ kind: 'file', path });
    expect(read.snapshot.history).toHaveLength(2);
    expect(read.warnings).toEqual(['the last line (44 bytes) was cut off, likely by a crash, and was skipped']);
    expect(read.tail).toEqual({ size: statSync(path).size, tornBytes: 44, unterminated: false });
    expect(await prepareForAppend(path, read.tail)).toBe(Buffer.byteLength(whole));
    expect(readFileSync(path, 'utf8')).toBe(whole);
  });

  it('a whole last line without its newline is kept, and gets one before anything is appended', async () => {
    const path = file(json(header, entry('one')) + JSON.stringify(entry('last')));
    const read = await readRollout({ kind: 'file', path });
    expect(await texts(path)).toEqual(['one', 'last']);
    expect(read.warnings).toEqual([]);
    expect(read.tail.unterminated).toBe(true);
    await prepareForAppend(path, read.tail);
    expect(readFileSync(path, 'utf8').endsWith('"}]}}}\n')).toBe(true);
  });

  it('garbage and unknown records in the middle are skipped, each with its line number; many are summed up', async () => {
    const path = file(
      `${json(header, entry('a'))}not json\n{"type":"fromTheFuture"}\n{"type":"history","turnId":null}\n\n${json(entry('b'))}`,
    );
    const read = await readRollout({ kind: 'file', path });
    expect(await texts(path)).toEqual(['a', 'b']);
    expect(read.warnings).toEqual([
      'line 3 is not valid JSON and was skipped',
      "line 4 holds an unknown record type 'fromTheFuture' and was skipped",
      'line 5 holds a malformed history record and was skipped',
    ]);
    const many = file(`${json(header)}${'garbage\n'.repeat(20)}${json(entry('c'))}`);
    const summed = await readRollout({ kind: 'file', path: many });
    expect(summed.warnings).toHaveLength(6);
    expect(summed.warnings.at(-1)).toBe('15 more unreadable lines were skipped');
    expect(summed.snapshot.history).toHaveLength(1);
  });

  it('refuses a newer format version, a file that is no rollout and an empty file, saying which', async () => {
    const newer = file(json({ ...header, version: ROLLOUT_VERSION + 1 } as RolloutLine, entry('x')));
    await expect(readRollout({ kind: 'file', path: newer })).rejects.toThrow(
      new RolloutReadError(
        `session ${threadId} was written by a newer Tiller (format version ${ROLLOUT_VERSION + 1}; this one reads up to ${ROLLOUT_VERSION}): update Tiller to resume it`,
      ),
    );
    const weird = file(json({ ...header, version: 0 } as RolloutLine));
    await expect(readRollout({ kind: 'file', path: weird })).rejects.toThrow('unknown format version (0)');
    const notOne = file('hello\nworld\n');
    await expect(readRollout({ kind: 'file', path: notOne })).rejects.toThrow(
      `${notOne} is not a Tiller session (its first line is not a header)`,
    );
    const headless = file(json(entry('x')));
    await expect(readRollout({ kind: 'file', path: headless })).rejects.toThrow('is not a Tiller session');
    await expect(readRollout({ kind: 'file', path: file('') })).rejects.toThrow('is empty');
    await expect(readRollout({ kind: 'file', path: join(tempDir(), 'gone.jsonl') })).rejects.toThrow('cannot be read: ENOENT');
  });

  it('a long file streams through: every turn, the history and the last usage', async () => {
    const home = tempDir();
    const written = writeSyntheticRollout({ home, turns: 300, toolOutputChars: 3000, imageEvery: 10, imageChars: 50_000 });
    const { snapshot, warnings } = await readRollout({ kind: 'file', path: written.path });
    expect(warnings).toEqual([]);
    expect(snapshot.turns.map((t) => t.id)).toEqual(written.turnIds);
    expect(snapshot.history).toHaveLength(300 * 4);
    expect(snapshot.usage?.total.inputTokens).toBe(300_000);
    const image = snapshot.history[0]!;
    expect(image.type === 'userInput' && image.converted[0]!.type === 'message' && image.converted[0]!.content[1]).toMatchObject({
      type: 'input_image',
    });
  });
});
