/**
 * The session header: the first transcript cell, printed once into the scrollback at start (not on
 * /new), as Codex's: name and version, model and provider, directory, approval mode. Its rows are
 * drawn by lines.ts (headerLines).
 */
import { sep } from 'node:path';
import type { ReasoningEffort } from '../../../protocol/api.js';
import type { NewCell } from '../../store.js';
import { describeApprovalMode, type ApprovalMode } from '../approvals/approval-modes.js';

export const OFFLINE_PROVIDER_NOTE = 'offline model — set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one';

export interface SessionHeaderInfo {
  version: string;
  model: string;
  effort: ReasoningEffort | null;
  /** `openai`, a base URL's host, or `offline`. */
  providerLabel: string;
  offline: boolean;
  cwd: string;
  home: string;
  approvalMode: ApprovalMode;
  profile: string | null;
}

/** `path` with the home directory written `~` (`~` itself, `~/src/x`); other paths as they are. */
export function tildePath(path: string, home: string): string {
  if (home === '' || home === sep) return path;
  const trimmed = home.endsWith(sep) ? home.slice(0, -1) : home;
  if (path === trimmed) return '~';
  return path.startsWith(trimmed + sep) ? `~${path.slice(trimmed.length)}` : path;
}

export function sessionHeaderCell(info: SessionHeaderInfo): NewCell {
  return {
    kind: 'header',
    version: info.version,
    model: info.model,
    effort: info.effort,
    provider: info.offline ? OFFLINE_PROVIDER_NOTE : info.providerLabel,
    directory: tildePath(info.cwd, info.home),
    approvals: describeApprovalMode(info.approvalMode),
    profile: info.profile,
  };
}
