/**
 * Skills and mentions of a turn's input (docs/codex-parity.md#skills-and-mentions): Skill items and `$name`
 * text mentions of a skill in `<skillsDir>/<name>/SKILL.md` inject the file as a user-role
 * fragment; `mcp://server` paths (Mention items, or written in text) are required MCP servers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResponseItem } from '../../protocol/response-items.js';
import { SKILL_NAME, skillMentionNames } from '../../protocol/skill-mentions.js';
import type { UserInput } from '../../protocol/user-input.js';

export interface SkillInjection {
  name: string;
  path: string;
  contents: string;
}

const TEXT_MCP_MENTION = /mcp:\/\/([A-Za-z0-9][A-Za-z0-9_.-]*)/g;
const MAX_SKILL_BYTES = 256 * 1024;

async function readSkill(path: string): Promise<string | null> {
  try {
    const contents = await readFile(path, 'utf8');
    return contents.length > MAX_SKILL_BYTES ? contents.slice(0, MAX_SKILL_BYTES) : contents;
  } catch {
    return null;
  }
}

/** Skill items first (their own path, else the skills dir), then `$name` text mentions; each once. */
export async function resolveSkills(items: readonly UserInput[], skillsDir: string): Promise<SkillInjection[]> {
  const wanted: Array<{ name: string; paths: string[] }> = [];
  const seen = new Set<string>();
  const want = (name: string, paths: string[]): void => {
    if (seen.has(name)) return;
    seen.add(name);
    wanted.push({ name, paths });
  };
  for (const item of items) {
    if (item.type === 'skill') {
      const fallback = SKILL_NAME.test(item.name) ? [join(skillsDir, item.name, 'SKILL.md')] : [];
      want(item.name, [item.path, ...fallback]);
    }
  }
  for (const item of items) {
    if (item.type !== 'text') continue;
    for (const name of skillMentionNames(item.text)) want(name, [join(skillsDir, name, 'SKILL.md')]);
  }
  const out: SkillInjection[] = [];
  for (const { name, paths } of wanted) {
    for (const path of paths) {
      const contents = await readSkill(path);
      if (contents !== null) {
        out.push({ name, path, contents });
        break;
      }
    }
  }
  return out;
}

export function skillInjectionText(skill: SkillInjection): string {
  return `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n${skill.contents}\n</skill>`;
}

export function skillResponseItem(skill: SkillInjection): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: skillInjectionText(skill) }] };
}

/** Server names of `mcp://server` paths in Mention items and in text, in first-seen order. */
export function requiredMcpServers(items: readonly UserInput[]): string[] {
  const servers: string[] = [];
  const add = (name: string): void => {
    if (name.length > 0 && !servers.includes(name)) servers.push(name);
  };
  for (const item of items) {
    if (item.type === 'mention' && item.path.startsWith('mcp://')) add(item.path.slice('mcp://'.length).split('/')[0]!);
    if (item.type === 'text') for (const match of item.text.matchAll(TEXT_MCP_MENTION)) add(match[1]!);
  }
  return servers;
}
