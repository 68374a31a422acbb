/**
 * The listing's view of a rollout without reading it: a `.meta.json` beside it, replaced atomically
 * (temp file, rename) at each turn end. Missing or unreadable (a crash in the first turn, an older
 * file), it is made from the header and the first user message instead, reading only that far.
 */
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { checkLine, previewOf, redactedJson, ROLLOUT_VERSION, type RolloutHeader } from './format.js';
import { forEachLine } from './lines.js';
import { metaPathOf } from './paths.js';

export interface RolloutSummary {
  header: RolloutHeader;
  /** The latest settings' model and cwd (the header's when only it was read). */
  model: string;
  cwd: string;
  /** '' when the thread has no user message (such a thread is not listed). */
  preview: string;
  /** Null when only the header was read. */
  turnCount: number | null;
  /** Unix ms. */
  updatedAt: number;
}

interface MetaFile extends RolloutSummary {
  metaVersion: 1;
}

export async function writeMeta(rollout: string, summary: RolloutSummary): Promise<void> {
  const path = metaPathOf(rollout);
  const tmp = `${path}.tmp-${process.pid}`;
  const meta: MetaFile = { metaVersion: 1, ...summary };
  try {
    await writeFile(tmp, `${redactedJson(meta)}\n`, { mode: 0o600 });
    await rename(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
}

function isMeta(value: unknown, threadId: string): value is MetaFile {
  if (typeof value !== 'object' || value === null) return false;
  const meta = value as Partial<MetaFile>;
  return (
    meta.metaVersion === 1 &&
    typeof meta.preview === 'string' &&
    typeof meta.updatedAt === 'number' &&
    (meta.turnCount === null || typeof meta.turnCount === 'number') &&
    typeof meta.header === 'object' &&
    meta.header !== null &&
    meta.header.threadId === threadId &&
    typeof meta.model === 'string' &&
    typeof meta.cwd === 'string'
  );
}

/** Lines read for a preview when there is no meta file: the first user message comes within a few. */
const HEAD_MAX_LINES = 1000;
const HEAD_CHUNK_BYTES = 64 * 1024;

async function readHead(rollout: string): Promise<RolloutSummary | null> {
  let header: RolloutHeader | null = null;
  let preview = '';
  let count = 0;
  let broken = false;
  await forEachLine(
    rollout,
    (text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = null;
      }
      const checked = checkLine(value);
      if (header === null) {
        if (!checked.ok || checked.line.type !== 'header' || checked.line.version > ROLLOUT_VERSION) broken = true;
        else header = checked.line;
        return !broken;
      }
      if (checked.ok && checked.line.type === 'history') preview = previewOf(checked.line.entry) ?? '';
      return preview === '' && ++count < HEAD_MAX_LINES;
    },
    HEAD_CHUNK_BYTES,
  );
  if (header === null || broken) return null;
  const { mtimeMs } = await stat(rollout);
  const found: RolloutHeader = header;
  return { header: found, model: found.model, cwd: found.cwd, preview, turnCount: null, updatedAt: Math.floor(mtimeMs) };
}

/** The summary of a rollout: its meta file, else its head; null when it is no readable rollout. */
export async function readSummary(rollout: string, threadId: string): Promise<RolloutSummary | null> {
  try {
    const value: unknown = JSON.parse(await readFile(metaPathOf(rollout), 'utf8'));
    if (isMeta(value, threadId)) {
      const { metaVersion: _version, ...summary } = value;
      return summary;
    }
  } catch {
    // No meta file, or a broken one: the head tells the rest.
  }
  try {
    return await readHead(rollout);
  } catch {
    return null;
  }
}
