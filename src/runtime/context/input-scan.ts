/**
 * What a user input asks for beyond its own text, found in one pass over its items: the skills it
 * names (Skill items, then `$name` mentions), the MCP servers it requires (`mcp://NAME` in Mention
 * items or text) and the resources it mentions (`@NAME:uri` of a configured server, as Claude
 * Code's). input-context.ts turns the scan into what the model reads.
 */
import { join } from 'node:path';
import { SKILL_NAME, skillMentionNames } from '../../protocol/skill-mentions.js';
import type { UserInput } from '../../protocol/user-input.js';

export interface WantedSkill {
  name: string;
  /** Tried in order: a Skill item's own path, then `<skillsDir>/<name>/SKILL.md`. */
  paths: string[];
}

export interface ResourceMention {
  server: string;
  uri: string;
}

export interface InputScan {
  skills: WantedSkill[];
  mcpServers: string[];
  resources: ResourceMention[];
}

export interface ScanOptions {
  /** Where `$name` skills live; absent, no skill is looked for. */
  skillsDir?: string;
  /** The configured MCP servers: only their `@NAME:uri` mentions are resources. */
  mcpServerNames?: ReadonlySet<string>;
}

const TEXT_MCP_MENTION = /mcp:\/\/([A-Za-z0-9][A-Za-z0-9_.-]*)/g;
/** `@server:scheme:…` preceded by the start, a space or an opening bracket; trailing punctuation is not part of the URI. */
const RESOURCE_MENTION = /(^|[\s([{"'])@([A-Za-z0-9][A-Za-z0-9_.-]*):([A-Za-z][A-Za-z0-9+.-]*:[^\s"'<>`]+)/g;

export function scanInput(items: readonly UserInput[], options: ScanOptions = {}): InputScan {
  const skillItems: WantedSkill[] = [];
  const textSkills: WantedSkill[] = [];
  const mcpServers: string[] = [];
  const resources: ResourceMention[] = [];
  const seenResources = new Set<string>();
  const addServer = (name: string): void => {
    if (name.length > 0 && !mcpServers.includes(name)) mcpServers.push(name);
  };
  const skillsDir = options.skillsDir;
  const servers = options.mcpServerNames;
  for (const item of items) {
    if (item.type === 'skill') {
      const fallback = skillsDir !== undefined && SKILL_NAME.test(item.name) ? [join(skillsDir, item.name, 'SKILL.md')] : [];
      skillItems.push({ name: item.name, paths: [item.path, ...fallback] });
    } else if (item.type === 'mention') {
      if (item.path.startsWith('mcp://')) addServer(item.path.slice('mcp://'.length).split('/')[0]!);
    } else if (item.type === 'text') {
      if (skillsDir !== undefined) {
        for (const name of skillMentionNames(item.text)) textSkills.push({ name, paths: [join(skillsDir, name, 'SKILL.md')] });
      }
      for (const match of item.text.matchAll(TEXT_MCP_MENTION)) addServer(match[1]!);
      if (servers === undefined || servers.size === 0) continue;
      for (const match of item.text.matchAll(RESOURCE_MENTION)) {
        const server = match[2]!;
        const uri = match[3]!.replace(/[.,;:!?)\]}]+$/, '');
        const key = `${server}\0${uri}`;
        if (!servers.has(server) || uri.length === 0 || seenResources.has(key)) continue;
        seenResources.add(key);
        resources.push({ server, uri });
      }
    }
  }
  // Skill items come before text mentions; a name is wanted once.
  const names = new Set<string>();
  const skills = [...skillItems, ...textSkills].filter((skill) => !names.has(skill.name) && names.add(skill.name));
  return { skills, mcpServers, resources };
}

/** `@NAME:uri` mentions of the given servers, each once, in order. */
export function resourceMentions(items: readonly UserInput[], servers: ReadonlySet<string>): ResourceMention[] {
  return scanInput(items, { mcpServerNames: servers }).resources;
}
