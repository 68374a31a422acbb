/**
 * The skills the `$` popup offers: every `<skillsDir>/<name>/SKILL.md`. The description is the
 * `description` of the YAML front matter (protocol/skill-front-matter.ts) on one line, else the first
 * non-empty line after it that is not a heading marker alone. Reads at most the first 4 KiB of each
 * file. Loaded on first use (main.ts imports it lazily): `yaml` stays out of the first frame.
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSkillFile, stringField } from '../../protocol/skill-front-matter.js';
import type { SkillInfo } from '../composer/types.js';

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const HEAD_BYTES = 4096;

async function readHead(path: string): Promise<string | null> {
  try {
    const file = await open(path, 'r');
    try {
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
  } catch {
    return null;
  }
}

export function skillDescription(head: string): string | undefined {
  const file = parseSkillFile(head);
  // A folded or literal block reads as one line in the popup.
  const described = stringField(file, 'description')?.replace(/\s+/g, ' ');
  if (described !== undefined) return described;
  return file.body
    .split(/\r?\n/)
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
}

/** Skills in name order; a missing directory means none. */
export async function listSkills(skillsDir: string): Promise<SkillInfo[]> {
  let names: string[];
  try {
    names = (await readdir(skillsDir, { withFileTypes: true })).filter((d) => d.isDirectory() && SKILL_NAME.test(d.name)).map((d) => d.name);
  } catch {
    return [];
  }
  const out: SkillInfo[] = [];
  for (const name of names.sort()) {
    const path = join(skillsDir, name, 'SKILL.md');
    const head = await readHead(path);
    if (head === null) continue;
    const description = skillDescription(head);
    out.push(description === undefined ? { name, path } : { name, path, description });
  }
  return out;
}
