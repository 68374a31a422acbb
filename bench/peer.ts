/**
 * The peer the TUI is measured against: OpenAI's Codex CLI, from the npm registry. Installed on
 * first use into a cache folder outside the project (it is not a dependency); CODEX_BIN overrides.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StartOptions } from '../test/support/pty.js';

export const CODEX_VERSION = '0.171.0';

export interface PeerClient {
  label: string;
  /** Text of its empty composer: the first frame a person can type into. */
  ready: string;
  options: StartOptions;
  /** Processes it left running beside its TUI (Codex 0.171 starts a managed app-server daemon). */
  helperPids?(): number[];
  /** Stops those processes at the end of the run and waits for them to go. */
  shutdown?(): Promise<void>;
  /** Points it at a Responses API server (the fake one), so it can stream an answer. */
  useModelServer?(baseUrl: string): void;
}

/** Processes whose command line names `marker` (a throw-away CODEX_HOME holds the daemon binary). */
function processesNaming(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

async function codexBinary(): Promise<string | null> {
  if (process.env.CODEX_BIN) return process.env.CODEX_BIN;
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tiller-bench', `codex-${CODEX_VERSION}`);
  const bin = join(dir, 'node_modules', '.bin', 'codex');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  try {
    await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, `@openai/codex@${CODEX_VERSION}`], {
      timeout: 300_000,
    });
  } catch {
    return null;
  }
  return existsSync(bin) ? bin : null;
}

/** Codex CLI with a throw-away CODEX_HOME logged in with a dummy key (it never reaches a model here). */
export async function codexPeer(): Promise<PeerClient | null> {
  const bin = await codexBinary();
  if (bin === null) return null;
  const codexHome = mkdtempSync(join(tmpdir(), 'tiller-peer-home-'));
  await new Promise<void>((resolve, reject) => {
    const login = execFile(
      bin,
      ['login', '--with-api-key'],
      { env: { ...process.env, CODEX_HOME: codexHome }, timeout: 30_000 },
      (error) => (error ? reject(error) : resolve()),
    );
    login.stdin?.end('sk-bench-dummy');
  });
  return {
    label: `Codex CLI ${CODEX_VERSION}`,
    ready: 'Ask Codex to do anything',
    options: {
      command: [bin],
      // A folder outside any git checkout: Codex asks no trust question there.
      cwd: mkdtempSync(join(tmpdir(), 'tiller-peer-cwd-')),
      env: { CODEX_HOME: codexHome, TILLER_BENCH_KEY: 'sk-bench-dummy' },
    },
    helperPids: () => processesNaming(codexHome),
    useModelServer: (baseUrl) =>
      writeFileSync(
        join(codexHome, 'config.toml'),
        `model = "fake-model"\nmodel_provider = "fake"\n\n[model_providers.fake]\nname = "fake"\nbase_url = "${baseUrl}"\nwire_api = "responses"\nenv_key = "TILLER_BENCH_KEY"\n`,
      ),
    shutdown: async () => {
      const signal = (sig: NodeJS.Signals): void => {
        for (const pid of processesNaming(codexHome)) {
          try {
            process.kill(pid, sig);
          } catch {
            // Already gone.
          }
        }
      };
      signal('SIGTERM');
      for (let i = 0; i < 30 && processesNaming(codexHome).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      signal('SIGKILL');
    },
  };
}
