/**
 * Where a model's command may run and who must say yes first, shared by every tool that runs one
 * (`shell`, `exec_command`): the sandbox the turn's policy gives, the approval the policy asks for
 * (decided on the parsed script, approval.ts), what "accept for this session" remembers, and the
 * second prompt after the sandbox stopped a command. The services are described here by what is
 * used of them, so this layer knows nothing of the turn machinery.
 */
import type { ApprovalPolicy, CommandApprovalDecision, SandboxPolicy } from '../../protocol/api.js';
import type { TillerConfig } from '../config.js';
import { commandSandbox, sandboxUnavailableWarning } from '../sandbox/command-sandbox.js';
import { looksLikeNetworkBlock, looksLikeSandboxDenial, type NetworkContext } from '../sandbox/sandbox.js';
import { approvalRuleFor, commandNeedsApproval, isSessionApproved } from './approval.js';
import { readGitConfig } from './git-config.js';
import { parseShellCommand } from './parse.js';
import type { ShellSandbox } from './run.js';

export const DECLINED_OUTPUT = 'The user declined to run this command. Do not retry it unless the user asks.';

export interface GateApprovals {
  readonly commands: string[][];
  readonly outsideSandbox: string[][];
  sandboxUnavailableTold: boolean;
}

/** What the gate uses of a turn's services (core/turn-services.ts gives all of it). */
export interface GateServices {
  readonly config: Pick<TillerConfig, 'sandboxWritableRoots' | 'sandboxNetworkAccess' | 'home' | 'skillsDir'>;
  readonly events: { warning(message: string): void };
  readonly approvals: GateApprovals;
  requestApproval(request: { itemId: string; command: string; cwd: string; reason: string | null }): Promise<CommandApprovalDecision>;
}

/** What the gate uses of the turn: its settings. */
export interface GateTurn {
  readonly cwd: string;
  readonly approvalPolicy: ApprovalPolicy;
  readonly sandboxPolicy: SandboxPolicy;
}

export async function askApproval(
  services: GateServices,
  request: { itemId: string; command: string; cwd: string; reason: string | null },
): Promise<CommandApprovalDecision> {
  try {
    return await services.requestApproval(request);
  } catch {
    // No client to ask, or it failed: never run a command nobody approved.
    return 'decline';
  }
}

export const accepted = (decision: CommandApprovalDecision): boolean => decision === 'accept' || decision === 'acceptForSession';

/** Stores what "accept for this session" covers: the command's exact argv, when it is one plain command. */
export async function remember(rules: string[][], command: string): Promise<void> {
  const rule = approvalRuleFor(await parseShellCommand(command));
  if (rule !== null) rules.push(rule);
}

export interface Placement {
  /** The sandbox it runs in; undefined: outside any. */
  confined: ShellSandbox | undefined;
  /** The policy the approval follows (`never` becomes `on-request` where no sandbox can be had). */
  policy: ApprovalPolicy;
  /** The user let this command out of the sandbox for the session. */
  letOut: boolean;
}

/**
 * Where the command runs: confined by the sandbox, or outside it when none was asked for or the
 * user let this command out for the session. With no sandbox to be had, `never` still asks.
 */
export async function placeCommand(services: GateServices, turn: GateTurn, command: string): Promise<Placement> {
  const sandbox = await commandSandbox(turn.sandboxPolicy, services.config);
  const policy = turn.approvalPolicy;
  const approvals = services.approvals;
  if (sandbox.type === 'unavailable') {
    if (!approvals.sandboxUnavailableTold) {
      approvals.sandboxUnavailableTold = true;
      services.events.warning(sandboxUnavailableWarning(sandbox.reason));
    }
    return { confined: undefined, policy: policy === 'never' ? 'on-request' : policy, letOut: false };
  }
  if (sandbox.type === 'none') return { confined: undefined, policy, letOut: false };
  const letOut = approvals.outsideSandbox.length > 0 && isSessionApproved(await parseShellCommand(command), approvals.outsideSandbox);
  return { confined: letOut ? undefined : sandbox.shell, policy, letOut };
}

/** Whether this command, so placed, must be approved before it runs (approval.ts on the parsed script). */
export function placementNeedsApproval(services: GateServices, placement: Placement, command: string, cwd: string): Promise<boolean> {
  if (placement.letOut) return Promise.resolve(false);
  return commandNeedsApproval({
    policy: placement.policy,
    sandboxed: placement.confined !== undefined,
    sessionApprovals: services.approvals.commands,
    command,
    cwd,
    readGitConfig,
  });
}

/** What the sandbox's network cut-off means for this command's denial check (sandbox.ts). */
export function networkContext(confined: ShellSandbox | undefined, command: string): NetworkContext {
  return { blocked: confined?.policy.networkAccess === false, command };
}

/**
 * The reason shown with the second prompt, after the sandbox stopped the command: the line that
 * says so, else, for a connection the cut-off network refused, its exit code (`curl -s` prints nothing).
 */
export function sandboxDeniedReason(result: { output: string; exitCode: number | null }, network: NetworkContext): string {
  const sign = result.output
    .split('\n')
    .find((line) =>
      looksLikeSandboxDenial({ exitCode: 1, output: line }, true, network.blocked ? { blocked: true, command: '' } : undefined),
    )
    ?.trim();
  if (sign) return `The sandbox blocked this command (${sign.slice(0, 160)}). Run it again without the sandbox?`;
  if (network.blocked && looksLikeNetworkBlock(result, network.command))
    return `The sandbox has no network access and this command could not connect (exit code ${result.exitCode}). Run it again without the sandbox?`;
  return 'The sandbox blocked this command. Run it again without the sandbox?';
}
