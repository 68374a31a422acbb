/**
 * What a thread or turn runs with (Codex's names): the approval policy, the sandbox and the reasoning
 * effort. Flags, config.toml and thread/start and turn/start name them alike.
 */
export type ApprovalPolicy = 'on-request' | 'never' | 'untrusted';
export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ['untrusted', 'on-request', 'never'];

/** Where a shell command may write (Codex's `SandboxMode` names). */
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';
export const SANDBOX_MODES: readonly SandboxMode[] = ['read-only', 'workspace-write', 'danger-full-access'];

/**
 * Codex's v2 `SandboxPolicy` (tagged by `type`): what `thread/start` / `turn/start` may send as
 * `sandboxPolicy`; `sandbox` there is the bare mode.
 */
export type SandboxPolicy =
  | { type: 'dangerFullAccess' }
  | { type: 'readOnly'; networkAccess?: boolean }
  | { type: 'workspaceWrite'; writableRoots?: string[]; networkAccess?: boolean; excludeTmpdirEnvVar?: boolean; excludeSlashTmp?: boolean };

/** How hard a reasoning model thinks (`model_reasoning_effort`, turn/start `effort`), sent as `reasoning.effort`. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['minimal', 'low', 'medium', 'high', 'xhigh'];
/** What each effort means, for model/list's `supportedReasoningEfforts`. */
export const REASONING_EFFORT_DESCRIPTIONS: Readonly<Record<ReasoningEffort, string>> = {
  minimal: 'Fastest answers, almost no reasoning',
  low: 'Fast answers with light reasoning',
  medium: 'Balances speed and reasoning depth',
  high: 'Deeper reasoning for complex problems',
  xhigh: 'The deepest reasoning, slowest answers',
};
/** The effort the Responses API uses when a request sends none. */
export const PROVIDER_DEFAULT_EFFORT: ReasoningEffort = 'medium';
