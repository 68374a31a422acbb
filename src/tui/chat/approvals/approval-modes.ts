/**
 * Approval modes: when commands ask (the runtime's approval policy) and where they may write (the
 * sandbox mode), named as Codex's presets. Shift+Tab cycles them and /approvals picks one; a mode
 * set by flags or the config that matches no preset is shown as `<approval> · <sandbox>`.
 */
import type { ApprovalPolicy, SandboxMode } from '../../../protocol/api.js';

export interface ApprovalMode {
  approvalPolicy: ApprovalPolicy;
  sandboxMode: SandboxMode;
}

export interface ApprovalPreset extends ApprovalMode {
  /** As in the /approvals picker and the confirmation cell. */
  label: string;
  /** The one line under the label in the picker. */
  description: string;
  /** What asks, in the confirmation cell after the sandbox mode. */
  asks: string;
}

/** In Shift+Tab order, most careful first. */
export const APPROVAL_PRESETS: readonly ApprovalPreset[] = [
  {
    label: 'Read only',
    approvalPolicy: 'on-request',
    sandboxMode: 'read-only',
    description: 'commands may read anything and write nothing; asks before one needs more',
    asks: 'asks before leaving the sandbox',
  },
  {
    label: 'Ask first',
    approvalPolicy: 'untrusted',
    sandboxMode: 'workspace-write',
    description: 'asks before every command not known to be read-only',
    asks: 'asks unless a command is known to be read-only',
  },
  {
    label: 'Auto',
    approvalPolicy: 'on-request',
    sandboxMode: 'workspace-write',
    description: 'commands may write in the workspace; asks before one needs more',
    asks: 'asks before leaving the sandbox',
  },
  {
    label: 'Full access',
    approvalPolicy: 'never',
    sandboxMode: 'danger-full-access',
    description: 'no sandbox and no questions: every command runs with your rights',
    asks: 'never asks',
  },
];

export const DEFAULT_APPROVAL_MODE: ApprovalMode = { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' };

export function presetIndexOf(mode: ApprovalMode): number {
  return APPROVAL_PRESETS.findIndex((p) => p.approvalPolicy === mode.approvalPolicy && p.sandboxMode === mode.sandboxMode);
}

/** Shift+Tab: the preset after this one; a mode that is no preset starts over at the first. */
export function nextApprovalMode(mode: ApprovalMode): ApprovalPreset {
  return APPROVAL_PRESETS[(presetIndexOf(mode) + 1) % APPROVAL_PRESETS.length]!;
}

/** The footer's word for the mode (`auto`, `full access`); `danger` when nothing is sandboxed. */
export function approvalModeFooter(mode: ApprovalMode): { text: string; danger: boolean } {
  const preset = APPROVAL_PRESETS[presetIndexOf(mode)];
  return {
    text: preset === undefined ? `${mode.approvalPolicy} · ${mode.sandboxMode}` : preset.label.toLowerCase(),
    danger: mode.sandboxMode === 'danger-full-access',
  };
}

/** `Auto (workspace-write, asks before leaving the sandbox)`, or the bare names for a mode that is no preset. */
export function describeApprovalMode(mode: ApprovalMode): string {
  const preset = APPROVAL_PRESETS[presetIndexOf(mode)];
  if (preset === undefined) return `${mode.approvalPolicy} · ${mode.sandboxMode}`;
  return `${preset.label} (${preset.sandboxMode}, ${preset.asks})`;
}

/** The cell after a change: a running turn keeps the mode it started with. */
export function approvalModeChangedText(mode: ApprovalMode, turnRunning: boolean): string {
  return `Approval mode: ${describeApprovalMode(mode)}${turnRunning ? ' — from the next turn' : ''}`;
}
