/**
 * The streaming part of a turn in the store: the agent message being written and the running
 * command's output (deltas coalesced per frame), and their finished transcript cells.
 */
import type { ThreadItem } from '../../protocol/api.js';
import { EMPTY_LIVE, withCells, type ChatStore, type CommandCellStatus, type NewCell } from '../store.js';
import { DeltaBuffer, type Schedule } from './delta-buffer.js';

export class LiveOutput {
  private readonly deltas: DeltaBuffer;

  constructor(
    private readonly store: ChatStore,
    schedule: Schedule,
  ) {
    this.deltas = new DeltaBuffer(schedule, (d) =>
      store.setState((s) => ({
        live: {
          ...s.live,
          agentText: d.agent === '' ? s.live.agentText : (s.live.agentText ?? '') + d.agent,
          command:
            s.live.command === null || d.command === '' ? s.live.command : { ...s.live.command, output: s.live.command.output + d.command },
        },
      })),
    );
  }

  agentDelta(delta: string): void {
    this.deltas.pushAgent(delta);
  }

  commandDelta(delta: string): void {
    this.deltas.pushCommand(delta);
  }

  itemStarted(item: ThreadItem): void {
    if (item.type === 'agentMessage') {
      this.deltas.flush();
      this.store.setState((s) => ({ live: { ...s.live, agentText: '', agentItemId: item.id } }));
    } else if (item.type === 'commandExecution') {
      this.deltas.flush();
      this.store.setState((s) => ({ live: { ...s.live, command: { itemId: item.id, command: item.command, output: '' } } }));
    }
  }

  /** A finished agent message, command or compaction becomes a cell; other items are not shown. */
  itemCompleted(item: ThreadItem): void {
    this.deltas.flush();
    switch (item.type) {
      case 'agentMessage':
        this.store.setState((s) => ({ live: { ...s.live, agentText: null, agentItemId: null } }));
        if (item.text !== '') this.cell({ kind: 'agent', markdown: item.text });
        return;
      case 'commandExecution': {
        const live = this.store.getState().live.command;
        this.store.setState((s) => ({ live: { ...s.live, command: null } }));
        this.cell({
          kind: 'command',
          command: item.command,
          output: item.aggregatedOutput ?? (live?.itemId === item.id ? live.output : ''),
          exitCode: item.exitCode,
          status: item.status === 'inProgress' ? 'interrupted' : item.status,
          source: 'model',
        });
        return;
      }
      case 'contextCompaction':
        this.cell({ kind: 'info', text: 'Context compacted.' });
        return;
      default:
        return;
    }
  }

  /** At the end of a turn whatever still streams becomes cells (a running command with `commandStatus`). */
  finalize(commandStatus: CommandCellStatus): void {
    this.deltas.flush();
    const live = this.store.getState().live;
    if (live.agentText !== null && live.agentText !== '') this.cell({ kind: 'agent', markdown: live.agentText });
    if (live.command !== null) {
      this.cell({ kind: 'command', command: live.command.command, output: live.command.output, exitCode: null, status: commandStatus, source: 'model' });
    }
    this.store.setState({ live: EMPTY_LIVE });
  }

  discard(): void {
    this.deltas.discard();
  }

  private cell(cell: NewCell): void {
    this.store.setState((s) => withCells(s, [cell]));
  }
}
