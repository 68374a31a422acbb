/**
 * The streaming part of a turn in the store: the agent message being written, the running
 * command's output (deltas coalesced per frame), the MCP calls in progress and the servers the turn
 * waits for, and their finished transcript cells.
 */
import type { FileUpdateChange, ThreadItem, TurnPlanStep } from '../../../protocol/api.js';
import { displayCommand } from '../../../protocol/shell-command-line.js';
import { EMPTY_LIVE, withCells, type ChatStore, type CommandCellStatus, type NewCell } from '../../store.js';
import { DeltaBuffer, type Schedule } from './delta-buffer.js';
import { appendOutput, keptOutput, NO_OUTPUT } from './live-command-output.js';
import { liveMcpCall, mcpCallCell, unfinishedMcpCell } from '../commands/mcp.js';
import { patchCell } from './patch-cell.js';

/** A finished reasoning item's text: its summary parts, else what streamed (a server that sent no summary). */
export function reasoningText(summary: readonly string[], streamed: string): string {
  const parts = summary.map((part) => part.trim()).filter((part) => part !== '');
  return parts.length > 0 ? parts.join('\n\n') : streamed.trim();
}

export class LiveOutput {
  private readonly deltas: DeltaBuffer;
  /** A stream retry left a failed attempt's partial answer on screen: the retried stream replaces it. */
  private stalePartial = false;
  /** Patches started and not yet completed: an approval request names one by its item id. */
  private readonly pendingPatches = new Map<string, Extract<ThreadItem, { type: 'fileChange' }>>();

  constructor(
    private readonly store: ChatStore,
    schedule: Schedule,
  ) {
    this.deltas = new DeltaBuffer(schedule, (d) =>
      store.setState((s) => ({
        live: {
          ...s.live,
          agentText: d.agent === '' ? s.live.agentText : (s.live.agentText ?? '') + d.agent,
          reasoning: d.reasoning === '' ? s.live.reasoning : (s.live.reasoning ?? '') + d.reasoning,
          command:
            s.live.command === null || d.command === ''
              ? s.live.command
              : { ...s.live.command, output: appendOutput(s.live.command.output, d.command) },
        },
      })),
    );
  }

  /** The patch `itemId` as a cell waiting for approval (its diff shown above the prompt); null when unknown. */
  pendingPatchCell(itemId: string): NewCell | null {
    const item = this.pendingPatches.get(itemId);
    return item === undefined ? null : patchCell(item, this.cwd(), 'pending');
  }

  /** The changes of the patch `itemId` waiting for approval, as the item names them; null when unknown. */
  pendingPatchChanges(itemId: string): FileUpdateChange[] | null {
    return this.pendingPatches.get(itemId)?.changes ?? null;
  }

  private cwd(): string {
    return this.store.getState().footer.cwd || process.cwd();
  }

  agentDelta(delta: string): void {
    this.deltas.pushAgent(delta);
  }

  commandDelta(delta: string): void {
    this.deltas.pushCommand(delta);
  }

  reasoningDelta(delta: string): void {
    this.deltas.pushReasoning(delta);
  }

  /** The turn waits for `server` to start (`tiller/mcpServerStarting`): the waiting line shows it. */
  mcpServerStarting(server: string): void {
    this.store.setState((s) => {
      const starting = s.live.mcpStarting ?? [];
      return starting.includes(server) ? {} : { live: { ...s.live, mcpStarting: [...starting, server] } };
    });
  }

  /** `server` is ready or failed (mcpServer/startupStatus/updated): the turn no longer waits for it. */
  mcpServerSettled(server: string): void {
    const starting = this.store.getState().live.mcpStarting ?? [];
    if (!starting.includes(server)) return;
    this.store.setState((s) => ({ live: { ...s.live, mcpStarting: (s.live.mcpStarting ?? []).filter((name) => name !== server) } }));
  }

  /** What a running call's server said of its progress (item/mcpToolCall/progress). */
  mcpProgress(itemId: string, message: string): void {
    if (!(this.store.getState().live.mcpCalls ?? []).some((c) => c.itemId === itemId)) return;
    this.store.setState((s) => ({
      live: { ...s.live, mcpCalls: (s.live.mcpCalls ?? []).map((c) => (c.itemId === itemId ? { ...c, progress: message } : c)) },
    }));
  }

  /** The turn goes on (output, an item): no more waiting line. */
  mcpWaitOver(): void {
    if ((this.store.getState().live.mcpStarting ?? []).length === 0) return;
    this.store.setState((s) => ({ live: { ...s.live, mcpStarting: [] } }));
  }

  /** The model's plan changed (turn/plan/updated): the live checklist is redrawn with it. */
  planUpdated(explanation: string | null, steps: TurnPlanStep[]): void {
    this.store.setState((s) => ({ live: { ...s.live, plan: { explanation, steps } } }));
  }

  /** A stream retry is announced: the partial answer stays shown until the retried stream starts an item. */
  retrying(): void {
    this.deltas.flush();
    this.stalePartial = this.store.getState().live.agentText !== null;
  }

  itemStarted(item: ThreadItem): void {
    if (item.type !== 'userMessage') this.mcpWaitOver();
    if (this.stalePartial && item.type !== 'userMessage') {
      this.stalePartial = false;
      this.store.setState((s) => ({ live: { ...s.live, agentText: null, agentItemId: null } }));
    }
    if (item.type === 'mcpToolCall') {
      const call = liveMcpCall(item);
      this.store.setState((s) => ({
        live: { ...s.live, mcpCalls: [...(s.live.mcpCalls ?? []).filter((c) => c.itemId !== item.id), call] },
      }));
    } else if (item.type === 'reasoning') {
      this.deltas.flush();
      this.store.setState((s) => ({ live: { ...s.live, reasoning: '' } }));
    } else if (item.type === 'agentMessage') {
      this.deltas.flush();
      this.store.setState((s) => ({ live: { ...s.live, agentText: '', agentItemId: item.id } }));
    } else if (item.type === 'fileChange') {
      this.pendingPatches.set(item.id, item);
    } else if (item.type === 'commandExecution') {
      this.deltas.flush();
      this.store.setState((s) => ({
        live: { ...s.live, command: { itemId: item.id, command: displayCommand(item.command), output: NO_OUTPUT } },
      }));
    }
  }

  /** A finished agent message, command, MCP call or compaction becomes a cell; other items are not shown. */
  itemCompleted(item: ThreadItem): void {
    this.deltas.flush();
    switch (item.type) {
      case 'mcpToolCall':
        this.store.setState((s) => ({ live: { ...s.live, mcpCalls: (s.live.mcpCalls ?? []).filter((c) => c.itemId !== item.id) } }));
        this.cell(mcpCallCell(item));
        return;
      case 'agentMessage':
        this.store.setState((s) => ({ live: { ...s.live, agentText: null, agentItemId: null } }));
        if (item.text !== '') this.cell({ kind: 'agent', markdown: item.text });
        return;
      case 'commandExecution': {
        const live = this.store.getState().live.command;
        this.store.setState((s) => ({ live: { ...s.live, command: null } }));
        this.cell({
          kind: 'command',
          command: displayCommand(item.command),
          output: item.aggregatedOutput ?? (live?.itemId === item.id ? keptOutput(live.output) : ''),
          exitCode: item.exitCode,
          durationMs: item.durationMs,
          status: item.status === 'inProgress' ? 'interrupted' : item.status,
          source: 'model',
        });
        return;
      }
      case 'fileChange':
        this.pendingPatches.delete(item.id);
        this.cell(patchCell(item, this.cwd()));
        return;
      case 'contextCompaction':
        this.cell({ kind: 'info', text: 'Context compacted.' });
        return;
      case 'reasoning': {
        const streamed = this.store.getState().live.reasoning ?? '';
        this.store.setState((s) => ({ live: { ...s.live, reasoning: null } }));
        const text = reasoningText(item.summary, streamed);
        if (text !== '') this.cell({ kind: 'reasoning', text });
        return;
      }
      case 'imageView':
        this.cell({ kind: 'imageView', path: item.path });
        return;
      case 'webSearch':
        this.cell({ kind: 'webSearch', query: item.query });
        return;
      default:
        return;
    }
  }

  /** At the end of a turn whatever still streams becomes cells (a running command with `commandStatus`). */
  finalize(commandStatus: CommandCellStatus): void {
    this.deltas.flush();
    this.stalePartial = false;
    const live = this.store.getState().live;
    if (live.reasoning) this.cell({ kind: 'reasoning', text: live.reasoning.trim() });
    if (live.agentText !== null && live.agentText !== '') this.cell({ kind: 'agent', markdown: live.agentText });
    if (live.command !== null) {
      this.cell({
        kind: 'command',
        command: live.command.command,
        output: keptOutput(live.command.output),
        exitCode: null,
        status: commandStatus,
        source: 'model',
      });
    }
    for (const call of live.mcpCalls ?? []) this.cell(unfinishedMcpCell(call, commandStatus === 'interrupted' ? 'interrupted' : 'failed'));
    // The plan as it stood at the end: one cell per turn, however often it changed.
    if (live.plan) this.cell({ kind: 'plan', explanation: live.plan.explanation, steps: live.plan.steps });
    this.pendingPatches.clear();
    this.store.setState({ live: EMPTY_LIVE });
  }

  discard(): void {
    this.deltas.discard();
    this.stalePartial = false;
  }

  private cell(cell: NewCell): void {
    this.store.setState((s) => withCells(s, [cell]));
  }
}
