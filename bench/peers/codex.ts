/**
 * OpenAI's Codex CLI (npm `@openai/codex`), pointed at the fake Responses server. CODEX_BIN
 * overrides the cached install.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeResponsesServer } from '../../test/support/fake-responses-server.js';
import { installed, type MissingPeer, type PeerClient, processesNaming, stopProcessesNaming, transcriptTurn } from '../peer.js';

export const CODEX_VERSION = '0.171.0';
export const CODEX_LABEL = `Codex CLI ${CODEX_VERSION}`;

/**
 * A rollout as Codex 0.171 writes one (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl), cut down to
 * the lines its resume reads: the session header, then per turn its start, the user and assistant
 * messages (as model input, and as the user_message / agent_message events its transcript is drawn
 * from) and its end. Resolves with the session id.
 */
function writeRollout(codexHome: string, cwd: string, turns: number): string {
  const id = randomUUID();
  const start = Date.now() - turns * 2_000;
  const day = new Date(start).toISOString().slice(0, 10);
  const dir = join(codexHome, 'sessions', ...day.split('-'));
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const line = (at: number, type: string, payload: object): void =>
    void lines.push(JSON.stringify({ timestamp: new Date(at).toISOString(), ordinal: lines.length, type, payload }));
  line(start, 'session_meta', {
    session_id: id,
    id,
    timestamp: new Date(start).toISOString(),
    cwd,
    originator: 'codex-tui',
    cli_version: CODEX_VERSION,
    source: 'cli',
    model_provider: 'fake',
  });
  for (let n = 1; n <= turns; n++) {
    const at = start + n * 2_000;
    const turn_id = randomUUID();
    const { question, answer } = transcriptTurn(n);
    line(at, 'event_msg', { type: 'task_started', turn_id, started_at: Math.floor(at / 1000), model_context_window: 258400 });
    line(at, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: question }] });
    line(at, 'event_msg', { type: 'user_message', message: question, images: [], local_images: [], text_elements: [] });
    line(at + 1, 'event_msg', { type: 'agent_message', message: answer });
    line(at + 1, 'response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer, annotations: [] }],
    });
    line(at + 1, 'event_msg', { type: 'task_complete', turn_id, last_agent_message: answer, duration_ms: 1 });
  }
  const stamp = new Date(start).toISOString().slice(0, 19).replaceAll(':', '-');
  writeFileSync(join(dir, `rollout-${stamp}-${id}.jsonl`), `${lines.join('\n')}\n`);
  return id;
}

async function codexBinary(): Promise<string | null> {
  if (process.env.CODEX_BIN) return process.env.CODEX_BIN;
  const dir = await installed(`codex-${CODEX_VERSION}`, [`@openai/codex@${CODEX_VERSION}`], 'node_modules/.bin/codex');
  return dir === null ? null : join(dir, 'node_modules/.bin/codex');
}

/** Codex CLI with a throw-away CODEX_HOME logged in with a dummy key, its provider the fake Responses server. */
export async function codexPeer(): Promise<PeerClient | MissingPeer> {
  const bin = await codexBinary();
  if (bin === null) return { label: CODEX_LABEL, reason: 'could not be installed from the npm registry' };
  const codexHome = mkdtempSync(join(tmpdir(), 'tiller-peer-home-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const login = execFile(
        bin,
        ['login', '--with-api-key'],
        { env: { ...process.env, CODEX_HOME: codexHome }, timeout: 30_000 },
        (error) => (error ? reject(error) : resolve()),
      );
      login.stdin?.end('sk-bench-dummy');
    });
  } catch (error) {
    return {
      label: CODEX_LABEL,
      reason: `\`codex login\` failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
  const server = await FakeResponsesServer.start();
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${server.baseUrl}"\nwire_api = "responses"\nenv_key = "TILLER_BENCH_KEY"\n`,
  );
  // A folder outside any git checkout: Codex asks no trust question there.
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-peer-cwd-'));
  const client: PeerClient = {
    label: CODEX_LABEL,
    ready: 'Ask Codex to do anything',
    options: { command: [bin], cwd, env: { CODEX_HOME: codexHome, TILLER_BENCH_KEY: 'sk-bench-dummy' } },
    helperPids: () => processesNaming(codexHome),
    modelServer: server,
    withTranscript: async (turns) => ({
      ...client,
      options: { ...client.options, command: [bin, 'resume', writeRollout(codexHome, cwd, turns)] },
    }),
    shutdown: async () => {
      await stopProcessesNaming(codexHome);
      await server.close();
    },
  };
  return client;
}
