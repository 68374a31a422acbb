/**
 * The sandbox a command of this thread runs in: the turn's policy, confined by bubblewrap or
 * Seatbelt when the machine has one. Where it has none, commands are not confined and the caller
 * asks before each (never silently running one unsandboxed); the user is told why, once a thread.
 */
import { mkdirSync } from 'node:fs';
import type { SandboxPolicy } from '../../protocol/api.js';
import type { TillerConfig } from '../config.js';
import { type ResolvedSandbox, resolveSandbox, sandboxAvailability } from './sandbox.js';
import type { ShellSandbox } from '../commands/run.js';

export type CommandSandbox =
  /** No sandbox asked for (danger-full-access). */
  | { type: 'none' }
  | { type: 'sandboxed'; shell: ShellSandbox }
  /** A sandbox was asked for and cannot be had here: `reason` says why. */
  | { type: 'unavailable'; reason: string };

type SandboxSettings = Pick<TillerConfig, 'sandboxWritableRoots' | 'sandboxNetworkAccess' | 'home' | 'skillsDir'>;

/** The turn's policy with the config's writable roots, network flag and protected paths. */
export function turnSandbox(policy: SandboxPolicy, config: SandboxSettings): ResolvedSandbox {
  return resolveSandbox(policy, {
    writableRoots: config.sandboxWritableRoots,
    networkAccess: config.sandboxNetworkAccess,
    protectedPaths: [config.home, config.skillsDir],
  });
}

export async function commandSandbox(policy: SandboxPolicy, config: SandboxSettings): Promise<CommandSandbox> {
  // The home must exist to be bound read-only: else a command in a writable parent could make it.
  mkdirSync(config.home, { recursive: true, mode: 0o700 });
  const resolved = turnSandbox(policy, config);
  if (resolved.mode === 'danger-full-access') return { type: 'none' };
  const availability = await sandboxAvailability();
  if (!availability.available) return { type: 'unavailable', reason: availability.reason };
  return { type: 'sandboxed', shell: { policy: resolved, launcher: availability } };
}

export function sandboxUnavailableWarning(reason: string): string {
  return `No sandbox for shell commands: ${reason}. Tiller will ask before every command it runs.`;
}

/** Told to the model with the output of a command the sandbox stopped, so it does not guess. */
export const SANDBOX_DENIED_NOTE =
  'The sandbox denied this command (it may not write outside the workspace or use the network). The user was not asked to run it outside the sandbox, or declined.';
