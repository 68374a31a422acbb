/** A thread's header and settings: a new one's, and a resumed or forked one's with the request's overrides. */
import { resolve } from 'node:path';
import type { ThreadResumeParams } from '../../protocol/api.js';
import { sandboxPolicyOf } from '../../protocol/sandbox-policy.js';
import { TILLER_VERSION } from '../../version.js';
import type { TillerConfig } from '../config.js';
import type { TurnContext } from '../core/turn-state.js';
import { ROLLOUT_VERSION, type RolloutHeader, type RolloutSettings, type ThreadSource } from '../rollout/format.js';

export function newHeader(options: {
  threadId: string;
  sessionId: string;
  forkedFromId: string | null;
  settings: TurnContext;
  provider: string;
  source: ThreadSource;
}): RolloutHeader {
  return {
    type: 'header',
    version: ROLLOUT_VERSION,
    threadId: options.threadId,
    sessionId: options.sessionId,
    cwd: options.settings.cwd,
    model: options.settings.model,
    provider: options.provider,
    createdAt: Date.now(),
    cliVersion: TILLER_VERSION,
    source: options.source,
    forkedFromId: options.forkedFromId,
  };
}

export type SettingsOverrides = Pick<ThreadResumeParams, 'model' | 'cwd' | 'approvalPolicy' | 'sandbox'>;

export function withOverrides(recorded: RolloutSettings, overrides: SettingsOverrides, config: TillerConfig): TurnContext {
  return {
    model: overrides.model ?? recorded.model,
    cwd: overrides.cwd ? resolve(recorded.cwd, overrides.cwd) : recorded.cwd,
    approvalPolicy: overrides.approvalPolicy ?? recorded.approvalPolicy,
    sandboxPolicy: overrides.sandbox
      ? sandboxPolicyOf(overrides.sandbox, { writableRoots: config.sandboxWritableRoots, networkAccess: config.sandboxNetworkAccess })
      : recorded.sandboxPolicy,
    effort: recorded.effort,
  };
}

/** A file with no settings recorded: the header's model and cwd, the config's rest. */
export function defaultSettings(header: RolloutHeader, config: TillerConfig): RolloutSettings {
  return {
    model: header.model,
    cwd: header.cwd,
    approvalPolicy: config.approvalPolicy,
    sandboxPolicy: sandboxPolicyOf(config.sandboxMode, {
      writableRoots: config.sandboxWritableRoots,
      networkAccess: config.sandboxNetworkAccess,
    }),
    effort: config.reasoningEffort,
  };
}
