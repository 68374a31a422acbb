/**
 * The turn's context messages, recorded into history at the start of a turn whenever they differ
 * from the last ones the model saw: the first turn, and any turn after the working directory, the
 * policies, the date or the model changed (Codex sends a new context message then, rather than
 * rewriting the first: the prompt's prefix stays cacheable). The history owns what was sent, so a
 * compaction that dropped the messages gets them again; only the model is remembered beside it.
 */
import { tmpdir } from 'node:os';
import { ENVIRONMENT_CONTEXT_OPEN, MODEL_SWITCH_CLOSE, MODEL_SWITCH_OPEN, PERMISSIONS_OPEN } from '../../protocol/context-fragments.js';
import type { ResponseItem } from '../../protocol/response-items.js';
import { developerTextItem, type HistoryEntry, userTextItem } from '../core/history.js';
import type { TurnServices } from '../core/turn-services.js';
import type { ActiveTurn } from '../core/turn-state.js';
import { turnSandbox } from '../sandbox/command-sandbox.js';
import { environmentContextText, hostTimeZone, localDate, permissionsText, shellName } from './environment-context.js';

function lastText(history: readonly HistoryEntry[], role: 'user' | 'developer', opening: string): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    if (entry.type !== 'item' || entry.item.type !== 'message' || entry.item.role !== role) continue;
    const part = entry.item.content[0];
    if (part?.type === 'input_text' && part.text.startsWith(opening)) return part.text;
  }
  return null;
}

export function modelSwitchText(from: string, to: string): string {
  return `${MODEL_SWITCH_OPEN}\nThe conversation so far was with ${from}; it goes on with ${to}. Keep following the current instructions.\n${MODEL_SWITCH_CLOSE}`;
}

/** The messages this turn must add, in Codex's order: model switch, permissions, environment. */
export function turnContextItems(services: TurnServices, turn: ActiveTurn, now: Date): ResponseItem[] {
  const settings = turn.context;
  const sandbox = turnSandbox(settings.sandboxPolicy, services.config);
  const environment = environmentContextText(
    {
      cwd: settings.cwd,
      shell: shellName(process.env.SHELL),
      currentDate: localDate(now),
      timezone: hostTimeZone(),
      sandbox,
      approvalPolicy: settings.approvalPolicy,
    },
    process.env.TMPDIR ?? tmpdir(),
  );
  const permissions = permissionsText(sandbox, settings.approvalPolicy);
  const items: ResponseItem[] = [];
  const sent = services.sentContext;
  if (sent.model !== null && sent.model !== settings.model) items.push(developerTextItem(modelSwitchText(sent.model, settings.model)));
  if (lastText(services.history, 'developer', PERMISSIONS_OPEN) !== permissions) items.push(developerTextItem(permissions));
  if (lastText(services.history, 'user', ENVIRONMENT_CONTEXT_OPEN) !== environment) items.push(userTextItem(environment));
  return items;
}

export function recordTurnContext(services: TurnServices, turn: ActiveTurn): void {
  for (const item of turnContextItems(services, turn, new Date(services.now()))) services.record({ type: 'item', item });
  services.sentContext.model = turn.context.model;
}
