/**
 * The two context messages that say where a turn runs (CODEX-REFERENCE §9): `<environment_context>`
 * (a user message: the working directory, shell, date, time zone, and the sandbox's reach) and
 * `<permissions instructions>` (a developer message: what the sandbox and approval policy allow,
 * and how to ask for more), in our own words with Codex's tags and field names.
 */
import { basename, isAbsolute, resolve } from 'node:path';
import {
  ENVIRONMENT_CONTEXT_CLOSE,
  ENVIRONMENT_CONTEXT_OPEN,
  PERMISSIONS_CLOSE,
  PERMISSIONS_OPEN,
} from '../../protocol/context-fragments.js';
import type { ApprovalPolicy } from '../../protocol/settings.js';
import type { ResolvedSandbox } from '../sandbox/sandbox.js';

export interface EnvironmentFacts {
  cwd: string;
  /** The user's shell (`$SHELL`), by name. */
  shell: string;
  /** Local date, YYYY-MM-DD. */
  currentDate: string;
  /** IANA zone name. */
  timezone: string;
  sandbox: ResolvedSandbox;
  approvalPolicy: ApprovalPolicy;
}

let timeZone: string | null = null;

/**
 * The host's IANA zone, looked up once: the first Intl.DateTimeFormat loads ICU's zone and locale
 * data (tens of ms, more on a busy machine), which on a first turn stood between Enter and the request.
 */
export function hostTimeZone(): string {
  timeZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  return timeZone;
}

export function shellName(shellPath: string | undefined): string {
  return shellPath ? basename(shellPath) : 'bash';
}

export function localDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Where a command may write: the working directory and the extra roots, then the temp dirs. */
export function writableRoots(sandbox: ResolvedSandbox, cwd: string, tmpdir: string | undefined): string[] {
  if (sandbox.mode !== 'workspace-write') return [];
  const roots = [cwd, ...sandbox.writableRoots.map((root) => (isAbsolute(root) ? root : resolve(cwd, root)))];
  if (sandbox.slashTmpWritable) roots.push('/tmp');
  if (sandbox.tmpdirWritable && tmpdir && tmpdir !== '/tmp') roots.push(tmpdir);
  return [...new Set(roots)];
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function environmentContextText(facts: EnvironmentFacts, tmpdir: string | undefined): string {
  const lines = [
    `  <cwd>${escape(facts.cwd)}</cwd>`,
    `  <shell>${escape(facts.shell)}</shell>`,
    `  <current_date>${facts.currentDate}</current_date>`,
    `  <timezone>${escape(facts.timezone)}</timezone>`,
    `  <approval_policy>${facts.approvalPolicy}</approval_policy>`,
    `  <sandbox_mode>${facts.sandbox.mode}</sandbox_mode>`,
    `  <network_access>${facts.sandbox.networkAccess ? 'enabled' : 'restricted'}</network_access>`,
  ];
  const roots = writableRoots(facts.sandbox, facts.cwd, tmpdir);
  if (roots.length > 0) lines.push('  <writable_roots>', ...roots.map((root) => `    <root>${escape(root)}</root>`), '  </writable_roots>');
  return `${ENVIRONMENT_CONTEXT_OPEN}\n${lines.join('\n')}\n${ENVIRONMENT_CONTEXT_CLOSE}`;
}

function sandboxRules(sandbox: ResolvedSandbox): string {
  const network = sandbox.networkAccess ? 'enabled' : 'restricted: commands cannot reach the network';
  switch (sandbox.mode) {
    case 'read-only':
      return `\`sandbox_mode\` is \`read-only\`: commands may read any file but write none. Network access is ${network}.`;
    case 'workspace-write':
      return `\`sandbox_mode\` is \`workspace-write\`: commands may read any file, and write in \`cwd\` and the \`writable_roots\`. Writing anywhere else needs approval. Tiller's own configuration and the repository's \`.git\` stay read-only. Network access is ${network}.`;
    case 'danger-full-access':
      return '`sandbox_mode` is `danger-full-access`: commands run without a sandbox, with the network. Take care: nothing stops a mistake.';
  }
}

function approvalRules(policy: ApprovalPolicy): string {
  switch (policy) {
    case 'never':
      return '`approval_policy` is `never`: nobody will be asked, so nothing can leave the sandbox. Work within it; when it blocks something the task needs, say what and why in your final message instead of asking.';
    case 'untrusted':
      return '`approval_policy` is `untrusted`: commands outside a short list of known read-only ones ask the user first. Expect to wait for an answer; a declined command must not be retried in another form.';
    case 'on-request':
      return [
        '`approval_policy` is `on-request`: commands run in the sandbox without asking. When one needs more than the sandbox allows, call it with `sandbox_permissions: "require_escalated"` and a one-sentence `justification`; the user is asked and sees your reason. Ask this way when:',
        '- a command must write outside the writable roots, or needs the network (installing packages, fetching);',
        '- a command important to the task failed because of the sandbox;',
        '- you are about to do something destructive the user did not ask for (`rm -rf`, `git reset --hard`).',
        'Do not ask in a message first: make the call with the justification.',
      ].join('\n');
  }
}

export function permissionsText(sandbox: ResolvedSandbox, approvalPolicy: ApprovalPolicy): string {
  return `${PERMISSIONS_OPEN}\n${sandboxRules(sandbox)}\n${approvalRules(approvalPolicy)}\n${PERMISSIONS_CLOSE}`;
}
