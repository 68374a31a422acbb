/**
 * The skills the `$` popup offers: every `<skillsDir>/<name>/SKILL.md`. The description is the
 * `description` of the YAML front matter (protocol/skill-front-matter.ts) on one line, else the first
 * non-empty line after it that is not a heading marker alone. Reads at most the first 4 KiB of each
 * file. Loaded on first use (main.ts imports it lazily): `yaml` stays out of the first frame.
 *
 * The list is re-read when the `$` popup opens (the composer's `refreshSkills`): a cheap check first
 * (the directory listing and each SKILL.md's size and mtime), the files only when that changed.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSkillFile, stringField } from '../../../protocol/skill-front-matter.js';
import type { SkillInfo } from '../../composer/types.js';

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

async function skillNames(skillsDir: string): Promise<string[] | null> {
  try {
    return (await readdir(skillsDir, { withFileTypes: true })).filter((d) => d.isDirectory() && SKILL_NAME.test(d.name)).map((d) => d.name);
  } catch {
    return null;
  }
}

/** What changes when a skill is added, removed or edited: the names and each SKILL.md's size and mtime. */
export async function skillsStamp(skillsDir: string): Promise<string> {
  const names = await skillNames(skillsDir);
  if (names === null) return '';
  const parts = await Promise.all(
    names.sort().map(async (name) => {
      try {
        const st = await stat(join(skillsDir, name, 'SKILL.md'));
        return `${name}:${st.size}:${st.mtimeMs}`;
      } catch {
        return `${name}:-`;
      }
    }),
  );
  return parts.join('\n');
}

const loaded = new Map<string, { stamp: string; skills: SkillInfo[] }>();

/** Skills in name order; a missing directory means none. Unchanged on disk (skillsStamp): the last list. */
export async function listSkills(skillsDir: string): Promise<SkillInfo[]> {
  const stamp = await skillsStamp(skillsDir);
  const last = loaded.get(skillsDir);
  if (last !== undefined && last.stamp === stamp) return last.skills;
  const skills = await readSkills(skillsDir);
  loaded.set(skillsDir, { stamp, skills });
  return skills;
}

async function readSkills(skillsDir: string): Promise<SkillInfo[]> {
  const names = await skillNames(skillsDir);
  if (names === null) return [];
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
