/**
 * `/feedback`: a diagnostic report to attach to a bug report. It holds what helps to reproduce a
 * problem (versions, terminal, model, the shape of the session, error messages) and never what
 * the user wrote: no prompt or answer text, no file content, no API key — counts and sizes only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../../../protocol/redact.js';
import { TILLER_VERSION } from '../../../version.js';
import type { ChatState } from '../../store.js';

export interface FeedbackEnvironment {
  platform: NodeJS.Platform;
  arch: string;
  nodeVersion: string;
  term: string | null;
  termProgram: string | null;
  columns: number | null;
  rows: number | null;
}

export interface FeedbackReport {
  tiller: string;
  createdAt: string;
  environment: FeedbackEnvironment;
  model: string;
  provider: string;
  offline: boolean;
  threadId: string | null;
  turnRunning: boolean;
  transcript: Record<string, number>;
  pending: { steers: number; rejectedSteers: number; queued: number };
  composer: { chars: number; attachments: number };
  /** Error and warning cells: messages from Tiller and the server, never user text. */
  recentProblems: string[];
}

const RECENT_PROBLEMS = 10;

export function buildFeedbackReport(state: ChatState, env: FeedbackEnvironment, now: Date): FeedbackReport {
  const transcript: Record<string, number> = {};
  for (const cell of state.cells) transcript[cell.kind] = (transcript[cell.kind] ?? 0) + 1;
  const problems = state.cells.filter((cell) => cell.kind === 'error' || cell.kind === 'warning').slice(-RECENT_PROBLEMS);
  return {
    tiller: TILLER_VERSION,
    createdAt: now.toISOString(),
    environment: env,
    model: state.footer.model,
    provider: state.footer.providerLabel,
    offline: state.footer.offline,
    threadId: state.threadId,
    turnRunning: state.activeTurn !== null,
    transcript,
    pending: { steers: state.pendingSteers.length, rejectedSteers: state.rejectedSteers.length, queued: state.queued.length },
    composer: { chars: [...state.composer.ta.text].length, attachments: state.composer.attachments.length },
    recentProblems: problems.map((cell) => `${cell.kind}: ${'text' in cell ? cell.text : ''}`),
  };
}

/** Writes the report under `$TILLER_HOME/feedback/` and returns its path. */
export function writeFeedbackReport(home: string, report: FeedbackReport): string {
  const dir = join(home, 'feedback');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `feedback-${report.createdAt.replace(/[:.]/g, '-')}.json`);
  // Error messages may quote a key or token; the report is meant to be shared.
  writeFileSync(path, `${redactSecrets(JSON.stringify(report, null, 2))}\n`, { mode: 0o600 });
  return path;
}

/** Where `/feedback` gets the terminal facts and puts the report (the user's TILLER_HOME in the app). */
export interface FeedbackSink {
  environment(): FeedbackEnvironment;
  save(report: FeedbackReport): string;
}

export function feedbackWrittenText(path: string): string {
  return `Wrote a diagnostic report to ${path}\nIt holds versions, terminal, model and error messages; no message text or file content. Attach it to your bug report.`;
}
