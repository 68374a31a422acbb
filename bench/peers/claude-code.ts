/**
 * Anthropic's Claude Code (npm `@anthropic-ai/claude-code`), pointed at the fake Messages API.
 * 2.1.332 ships no cli.js: it is a native binary per platform (an optional dependency its postinstall
 * copies to bin/claude.exe), so it needs no Node runtime of its own.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installed, type MissingPeer, type PeerClient, transcriptTurn, workingBinary } from '../peer.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';

export const CLAUDE_CODE_VERSION = '2.1.332';
export const CLAUDE_CODE_LABEL = `Claude Code ${CLAUDE_CODE_VERSION}`;
const API_KEY = 'sk-ant-bench-dummy-key-0000';
// Pinned, and named in the recorded session: one it does not know is reported on resume.
const MODEL = 'claude-opus-5-5';

/**
 * A session as Claude Code writes one (projects/<cwd with non-alphanumerics as dashes>/<id>.jsonl):
 * a chain of user and assistant entries, each naming its parent. Resolves with the session id.
 */
function writeSession(configDir: string, cwd: string, turns: number): string {
  const sessionId = randomUUID();
  const dir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const start = Date.now() - turns * 2_000;
  const common = { isSidechain: false, userType: 'external', cwd, sessionId, version: CLAUDE_CODE_VERSION };
  const lines: string[] = [];
  let parentUuid: string | null = null;
  const entry = (at: number, fields: object): void => {
    const uuid = randomUUID();
    lines.push(JSON.stringify({ parentUuid, ...common, ...fields, uuid, timestamp: new Date(at).toISOString() }));
    parentUuid = uuid;
  };
  for (let n = 1; n <= turns; n++) {
    const at = start + n * 2_000;
    const { question, answer } = transcriptTurn(n);
    entry(at, { type: 'user', message: { role: 'user', content: question } });
    const message = {
      id: `msg_bench_${n}`,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: answer }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 20 },
    };
    entry(at + 1, { type: 'assistant', message });
  }
  writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  return sessionId;
}

/**
 * Claude Code in a throw-away HOME whose config says onboarding is done, the folder trusted and the
 * key approved (no dialog before the prompt), with updates and non-essential traffic off.
 */
export async function claudeCodePeer(): Promise<PeerClient | MissingPeer> {
  const dir = await installed(
    `claude-code-${CLAUDE_CODE_VERSION}`,
    [`@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`],
    'node_modules/.bin/claude',
  );
  if (dir === null) return { label: CLAUDE_CODE_LABEL, reason: 'could not be installed from the npm registry' };
  const home = mkdtempSync(join(tmpdir(), 'tiller-peer-claude-'));
  const configDir = join(home, '.claude');
  mkdirSync(configDir);
  const modules = join(dir, 'node_modules');
  const platform = join(modules, '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
  const bin = await workingBinary([join(modules, '.bin', 'claude'), platform], CLAUDE_CODE_VERSION, {
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
  });
  if (bin === null) return { label: CLAUDE_CODE_LABEL, reason: 'its native binary does not run here (`claude --version` failed)' };
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-peer-cwd-'));
  writeFileSync(
    join(configDir, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: CLAUDE_CODE_VERSION,
      theme: 'dark',
      // It remembers an approved key by its last 20 characters.
      customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const server = await startFakeAnthropicServer();
  const client: PeerClient = {
    label: CLAUDE_CODE_LABEL,
    // The prompt row, empty.
    ready: (screen) => screen.split('\n').includes('❯'),
    options: {
      command: [bin],
      cwd,
      env: {
        HOME: home,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: server.baseUrl,
        ANTHROPIC_API_KEY: API_KEY,
        ANTHROPIC_MODEL: MODEL,
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    },
    pastePlaceholder: '[Pasted text #1',
    modelServer: server,
    withTranscript: async (turns) => ({
      ...client,
      options: { ...client.options, command: [bin, '--resume', writeSession(configDir, cwd, turns)] },
    }),
    shutdown: () => server.close(),
  };
  return client;
}
