/**
 * The sandbox a thread or turn runs its commands in, as Codex's v2 `SandboxPolicy`, from the bare
 * mode that flags, config and `thread/start`'s `sandbox` name.
 */
import type { SandboxMode, SandboxPolicy } from './api.js';

export interface SandboxSettings {
  writableRoots: readonly string[];
  networkAccess: boolean;
}

export function sandboxPolicyOf(mode: SandboxMode, settings: SandboxSettings): SandboxPolicy {
  switch (mode) {
    case 'danger-full-access':
      return { type: 'dangerFullAccess' };
    case 'read-only':
      return { type: 'readOnly', networkAccess: false };
    case 'workspace-write':
      return { type: 'workspaceWrite', writableRoots: [...settings.writableRoots], networkAccess: settings.networkAccess };
  }
}

export function sandboxModeOf(policy: SandboxPolicy): SandboxMode {
  return policy.type === 'dangerFullAccess' ? 'danger-full-access' : policy.type === 'readOnly' ? 'read-only' : 'workspace-write';
}
