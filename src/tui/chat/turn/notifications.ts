/**
 * The app server's notifications for the current thread, turned into store updates: streaming
 * output, MCP calls and server start-ups, retry status, warnings, token usage and media
 * preparation go straight to the store; the turn lifecycle (turn/started, a committed userMessage,
 * turn/completed, a final error) goes back to the controller, which owns turns, pending steers and
 * interrupts.
 */
import type { ServerNotification, Turn, V2UserInput } from '../../../protocol/api.js';
import { withCells, type ChatStore, type NewCell } from '../../store.js';
import type { LiveOutput } from './live-output.js';
import { ReviewEcho } from '../review/review-echo.js';
import { commandChangesCell } from './command-changes-cell.js';
import type { TillerDelivery } from '../../../protocol/pending-input.js';

export interface TurnLifecycle {
  turnStarted(turn: Turn): void;
  turnCompleted(turn: Turn): void;
  /** A recorded userMessage item (it may commit a pending steer: docs/codex-parity.md#pending-steer-rows), with its delivery receipt. */
  userMessage(content: V2UserInput[], itemId: string, delivery: TillerDelivery | null): void;
  /** The turn ended without these held steers (`tiller/pendingInputsReturned`). */
  inputsReturned(clientIds: string[]): void;
  /** An error without retry was shown for the turn (its turn/completed must not repeat it). */
  errorShown(turnId: string): void;
}

/** Status while local media is read and encoded (announced by the runtime after 100 ms). */
export function preparingStatus(count: number): string {
  return count === 1 ? 'Preparing 1 attachment…' : `Preparing ${count} attachments…`;
}

export class NotificationRouter {
  private readonly reviewEcho = new ReviewEcho();
  constructor(
    private readonly store: ChatStore,
    private readonly live: LiveOutput,
    private readonly turns: TurnLifecycle,
    private readonly threadId: () => string | null,
  ) {}

  handle(n: ServerNotification): void {
    const threadId = this.threadId();
    // A server's start-up state is news whichever thread started it (null: none did).
    if (n.method === 'mcpServer/startupStatus/updated') {
      if (n.params.status !== 'starting') this.live.mcpServerSettled(n.params.name);
      return;
    }
    if ('threadId' in n.params && threadId !== null && n.params.threadId !== threadId) return;
    switch (n.method) {
      case 'turn/started':
        return this.turns.turnStarted(n.params.turn);
      case 'item/started':
        if (this.reviewEcho.started(n.params.item)) return;
        if (n.params.item.type !== 'userMessage') this.resumeWorking();
        return this.live.itemStarted(n.params.item);
      case 'item/agentMessage/delta':
        this.resumeWorking();
        this.live.mcpWaitOver();
        this.live.agentDelta(n.params.delta);
        return;
      case 'item/reasoning/textDelta':
        this.live.mcpWaitOver();
        this.live.reasoningDelta(n.params.delta);
        return;
      case 'item/commandExecution/outputDelta':
        this.live.commandDelta(n.params.delta);
        return;
      case 'item/completed':
        if (this.reviewEcho.completed(n.params.item)) return;
        if (n.params.item.type === 'userMessage')
          return this.turns.userMessage(n.params.item.content, n.params.item.id, n.params.tillerDelivery ?? null);
        return this.live.itemCompleted(n.params.item);
      case 'tiller/reviewOutput': {
        const { overall_explanation: explanation, findings } = n.params.output;
        this.reviewEcho.expect();
        return this.cell({ kind: 'review', explanation, findings });
      }
      case 'tiller/turn/checkpoint': {
        const cell = commandChangesCell(n.params.commandChanges, this.store.getState().footer.cwd || process.cwd());
        if (cell !== null) this.cell(cell);
        return;
      }
      case 'tiller/pendingInputsReturned':
        return this.turns.inputsReturned(n.params.clientIds);
      case 'turn/completed':
        this.reviewEcho.reset();
        return this.turns.turnCompleted(n.params.turn);
      case 'error':
        if (n.params.willRetry) {
          this.live.retrying();
          this.store.setState({ status: n.params.error.message, statusDetail: n.params.error.additionalDetails });
        } else {
          this.turns.errorShown(n.params.turnId);
          this.cell({ kind: 'error', text: n.params.error.message });
        }
        return;
      case 'thread/tokenUsage/updated':
        this.store.setState({ tokenUsage: n.params.tokenUsage });
        return;
      case 'warning':
        this.cell({ kind: 'warning', text: n.params.message });
        return;
      case 'tiller/mcpServerStarting':
        this.live.mcpServerStarting(n.params.server);
        return;
      case 'turn/plan/updated':
        this.live.planUpdated(n.params.explanation, n.params.plan);
        return;
      case 'item/mcpToolCall/progress':
        this.live.mcpProgress(n.params.itemId, n.params.message);
        return;
      case 'tiller/mediaPreparation':
        if (n.params.state === 'started') this.store.setState({ status: preparingStatus(n.params.count), preparingMedia: true });
        else this.store.setState({ status: 'Working', preparingMedia: false });
        return;
      case 'hook/completed':
        if (n.params.run.status === 'blocked')
          this.cell({ kind: 'warning', text: n.params.run.statusMessage ?? 'A UserPromptSubmit hook blocked the message.' });
        return;
      default:
        return;
    }
  }

  /** Output after a retry notice: the status goes back to `Working`. */
  private resumeWorking(): void {
    const s = this.store.getState();
    if (s.activeTurn !== null && s.status !== 'Working') this.store.setState({ status: 'Working', statusDetail: null });
  }

  private cell(cell: NewCell): void {
    this.store.setState((s) => withCells(s, [cell]));
  }
}
