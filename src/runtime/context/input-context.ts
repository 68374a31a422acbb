/**
 * The one owner of what a user input brings into the conversation besides itself, recorded right
 * after it and in this order: the UserPromptSubmit hooks' contexts, the request's additional
 * context, the skills it names, then what MCP makes of it (required servers made ready, notices
 * for those that cannot be, the resources it mentions). The input is scanned once
 * (input-scan.ts). Thread-wide context (the brief, AGENTS.md) is thread-context.ts's.
 */
import type { TurnInputRequest } from '../../protocol/turn-input.js';
import type { UserInput } from '../../protocol/user-input.js';
import { developerTextItem } from '../core/history.js';
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn } from '../core/turn-state.js';
import { prepareMcpInput } from '../mcp/turn.js';
import { scanInput } from './input-scan.js';
import { readSkills, skillResponseItem } from './skills.js';

export async function recordInputContext(
  services: TurnServices,
  turn: ActiveTurn,
  content: readonly UserInput[],
  hookContexts: readonly string[],
  additionalContext: TurnInputRequest['additionalContext'],
): Promise<void> {
  for (const text of hookContexts) services.record({ type: 'item', item: developerTextItem(text) });
  for (const entry of Object.values(additionalContext)) services.record({ type: 'item', item: developerTextItem(entry.text) });
  const mcp = services.mcp;
  const scan = scanInput(content, {
    skillsDir: services.config.skillsDir,
    ...(mcp !== null && mcp.configured ? { mcpServerNames: new Set(mcp.names()) } : {}),
  });
  for (const skill of await readSkills(scan.skills)) {
    services.record({ type: 'item', item: skillResponseItem(skill) });
    services.events.emit('tiller/skillInjected', { name: skill.name, path: skill.path });
  }
  if (scan.mcpServers.length > 0) services.events.emit('tiller/requiredMcpServers', { servers: scan.mcpServers });
  await prepareMcpInput(services, turn, scan);
}
