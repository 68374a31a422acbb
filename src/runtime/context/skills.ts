/**
 * Skills and mentions of a turn's input (docs/codex-parity.md#skills-and-mentions): Skill items and `$name`
 * text mentions of a skill in `<skillsDir>/<name>/SKILL.md` inject the file as a user-role
 * fragment; `mcp://server` paths (Mention items, or written in text) are required MCP servers.
 */
import { readFile } from 'node:fs/promises';
import type { ResponseItem } from '../../protocol/response-items.js';
import type { UserInput } from '../../protocol/user-input.js';
import { scanInput, type WantedSkill } from './input-scan.js';

export interface SkillInjection {
  name: string;
  path: string;
  contents: string;
}

const MAX_SKILL_BYTES = 256 * 1024;

async function readSkill(path: string): Promise<string | null> {
  try {
    const contents = await readFile(path, 'utf8');
    return contents.length > MAX_SKILL_BYTES ? contents.slice(0, MAX_SKILL_BYTES) : contents;
  } catch {
    return null;
  }
}

/** The wanted skills that exist, each from the first of its paths that can be read. */
export async function readSkills(wanted: readonly WantedSkill[]): Promise<SkillInjection[]> {
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

/** Skill items first (their own path, else the skills dir), then `$name` text mentions; each once. */
export function resolveSkills(items: readonly UserInput[], skillsDir: string): Promise<SkillInjection[]> {
  return readSkills(scanInput(items, { skillsDir }).skills);
}

export function skillInjectionText(skill: SkillInjection): string {
  return `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n${skill.contents}\n</skill>`;
}

export function skillResponseItem(skill: SkillInjection): ResponseItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: skillInjectionText(skill) }] };
}

/** Server names of `mcp://server` paths in Mention items and in text, in first-seen order. */
export function requiredMcpServers(items: readonly UserInput[]): string[] {
  return scanInput(items).mcpServers;
}
