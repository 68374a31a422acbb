/**
 * Whether an exec_command may run, and where: the shell tool's rules (commands/command-gate.ts),
 * plus Codex's escalation. `require_escalated` asks to run outside the sandbox, showing the model's
 * justification as the approval's reason; as in Codex it is refused outright unless the policy is
 * `on-request`, the only one under which the model may ask. `prefix_rule` is accepted and not used:
 * an approval for the session covers the exact command, never a prefix.
 */
import type { CommandApprovalDecision } from '../../../protocol/api.js';
import {
  accepted,
  askApproval,
  DECLINED_OUTPUT,
  type Placement,
  placeCommand,
  placementNeedsApproval,
  remember,
} from '../../commands/command-gate.js';
import type { TurnServices } from '../../core/turn-services.js';
import type { ActiveTurn } from '../../core/turn-state.js';
import type { ExecCommandArguments } from './spec.js';

export type ExecGate =
  | { type: 'run'; placement: Placement }
  /** `decision`: the user's answer; null when the policy refused without asking. */
  | { type: 'refused'; decision: CommandApprovalDecision | null; output: string };

export function escalationRefusal(policy: string): string {
  return `approval policy is ${policy}; reject command — you cannot ask for escalated permissions if the approval policy is ${policy}`;
}

export async function gateExecCommand(
  services: TurnServices,
  turn: ActiveTurn,
  itemId: string,
  args: ExecCommandArguments,
  cwd: string,
): Promise<ExecGate> {
  const placement = await placeCommand(services, turn.context, args.cmd);
  const ask = async (reason: string | null, rules: string[][]): Promise<ExecGate | null> => {
    const decision = await askApproval(services, { itemId, command: args.cmd, cwd, reason });
    if (turn.signal.aborted || !accepted(decision)) return { type: 'refused', decision, output: DECLINED_OUTPUT };
    if (decision === 'acceptForSession') await remember(rules, args.cmd);
    return null;
  };
  // Escalation only means something where a sandbox would confine the command.
  if (args.escalated && placement.confined !== undefined) {
    const policy = turn.context.approvalPolicy;
    if (policy !== 'on-request') return { type: 'refused', decision: null, output: escalationRefusal(policy) };
    const refused = await ask(args.justification, services.approvals.outsideSandbox);
    return refused ?? { type: 'run', placement: { confined: undefined, policy: placement.policy, letOut: true } };
  }
  if (await placementNeedsApproval(services, placement, args.cmd, cwd)) {
    const refused = await ask(null, services.approvals.commands);
    if (refused !== null) return refused;
  }
  return { type: 'run', placement };
}
