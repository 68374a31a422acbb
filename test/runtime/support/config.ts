/** A complete TillerConfig for tests and benchmarks, in its own temporary home. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TillerConfig } from '../../../src/runtime/config.js';

export function tempDir(prefix = 'tiller-rt-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function testConfig(overrides: Partial<TillerConfig> = {}): TillerConfig {
  const home = tempDir('tiller-home-');
  return {
    home,
    model: 'test-model',
    baseUrl: null,
    apiKey: 'dummy',
    approvalPolicy: 'never',
    // No sandbox unless a test asks for one: `on-request` then asks before every command.
    sandboxMode: 'danger-full-access',
    sandboxWritableRoots: [],
    sandboxNetworkAccess: false,
    reasoningEffort: null,
    models: [],
    profile: null,
    mcpServers: {},
    vimModeDefault: false,
    vimEscapeSequence: null,
    modelSupportsImages: true,
    interruptMarker: true,
    requestMaxRetries: 4,
    streamMaxRetries: 5,
    streamIdleTimeoutMs: 5_000,
    userPromptSubmitHooks: [],
    skillsDir: join(home, 'skills'),
    warnings: [],
    ...overrides,
  };
}
