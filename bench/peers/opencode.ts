/**
 * OpenCode (npm `opencode-ai`, a native binary per platform), its one provider a custom
 * `@ai-sdk/openai-compatible` one pointed at the fake Chat Completions server.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTiller } from '../../test/support/pty.js';
import { installed, type MissingPeer, type PeerClient, runs, transcriptTurn, workingBinary } from '../peer.js';
import { sleep, stop } from '../pty-bench.js';
import { startFakeChatCompletionsServer } from './fake-chat-completions-server.js';

export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_LABEL = `OpenCode ${OPENCODE_VERSION}`;

/**
 * A session in the JSON of `opencode export` (info, then messages with their parts), for `opencode
 * import`: its storage is an SQLite database the import fills. Ids are ascending, as its own are (it
 * orders messages by id). Resolves with the file's path and the session id.
 */
function sessionExport(dir: string, cwd: string, turns: number): { file: string; id: string } {
  let counter = 0;
  const id = (prefix: string): string => `${prefix}_${(0x100000000000 + counter++).toString(16)}benchbenchbenc`;
  const sessionID = id('ses');
  const start = Date.now() - turns * 2_000;
  const model = { providerID: 'fake', modelID: 'fake-model' };
  const messages: object[] = [];
  const text = (messageID: string, body: string): object => ({ type: 'text', text: body, id: id('prt'), sessionID, messageID });
  for (let n = 1; n <= turns; n++) {
    const at = start + n * 2_000;
    const { question, answer } = transcriptTurn(n);
    const userID = id('msg');
    messages.push({
      info: { id: userID, sessionID, role: 'user', time: { created: at }, agent: 'build', model },
      parts: [text(userID, question)],
    });
    const assistantID = id('msg');
    const tokens = { total: 30, input: 10, output: 20, reasoning: 0, cache: { write: 0, read: 0 } };
    messages.push({
      info: {
        id: assistantID,
        sessionID,
        parentID: userID,
        role: 'assistant',
        mode: 'build',
        agent: 'build',
        path: { cwd, root: cwd },
        cost: 0,
        tokens,
        ...model,
        time: { created: at + 1, completed: at + 2 },
        finish: 'stop',
      },
      parts: [text(assistantID, answer)],
    });
  }
  const info = {
    id: sessionID,
    slug: 'bench-transcript',
    projectID: 'global',
    directory: cwd,
    title: `${turns} turns`,
    agent: 'build',
    model: { id: 'fake-model', providerID: 'fake' },
    version: OPENCODE_VERSION,
    time: { created: start, updated: start + turns * 2_000 },
  };
  const file = join(dir, `${sessionID}.json`);
  writeFileSync(file, JSON.stringify({ info, messages }));
  return { file, id: sessionID };
}

/**
 * OpenCode in a throw-away HOME (XDG folders inside it), configured by OPENCODE_CONFIG, with
 * updates, model-list fetches and LSP downloads off.
 */
export async function openCodePeer(): Promise<PeerClient | MissingPeer> {
  const dir = await installed(`opencode-${OPENCODE_VERSION}`, [`opencode-ai@${OPENCODE_VERSION}`], 'node_modules/.bin/opencode');
  if (dir === null) return { label: OPENCODE_LABEL, reason: 'could not be installed from the npm registry' };
  const home = mkdtempSync(join(tmpdir(), 'tiller-peer-opencode-'));
  const cwd = mkdtempSync(join(tmpdir(), 'tiller-peer-cwd-'));
  const server = await startFakeChatCompletionsServer();
  const config = join(home, 'opencode.json');
  writeFileSync(
    config,
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      autoupdate: false,
      share: 'disabled',
      model: 'fake/fake-model',
      // Titles come from the small model: the fake server gives scripted answers to fake-model only.
      small_model: 'fake/fake-small',
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: server.baseUrl, apiKey: 'sk-bench-dummy' },
          models: { 'fake-model': { name: 'Fake model' }, 'fake-small': { name: 'Fake small' } },
        },
      },
    }),
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_CONFIG: config,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
  const modules = join(dir, 'node_modules');
  const platform = join(modules, `opencode-${process.platform}-${process.arch}`, 'bin', 'opencode');
  const bin = await workingBinary([join(modules, '.bin', 'opencode'), platform], OPENCODE_VERSION, env);
  if (bin === null) {
    await server.close();
    return { label: OPENCODE_LABEL, reason: 'its native binary does not run here (`opencode --version` failed)' };
  }
  const ready = (screen: string): boolean => screen.includes('ctrl+p commands') && screen.includes('Fake model');
  const client: PeerClient = {
    label: OPENCODE_LABEL,
    ready,
    busy: 'esc interrupt',
    options: { command: [bin], cwd, env },
    modelServer: server,
    withTranscript: async (turns) => {
      const { file, id } = sessionExport(home, cwd, turns);
      if ((await runs(bin, ['import', file], { env, cwd })) === null) throw new Error('`opencode import` failed');
      return { ...client, options: { ...client.options, command: [bin, '--session', id] } };
    },
    shutdown: () => server.close(),
  };
  // Its first start installs its plugin package from the npm registry into the config folder, behind
  // the first frame: done here once, so the measured launches are the everyday ones.
  const installedPlugin = join(env.XDG_CONFIG_HOME, 'opencode', 'package-lock.json');
  const first = startTiller({ cols: 120, rows: 40, ...client.options });
  try {
    await first.waitFor(ready, 120_000);
    for (let waited = 0; !existsSync(installedPlugin); waited += 200) {
      if (waited > 120_000) throw new Error('no plugin install');
      await sleep(200);
    }
  } catch {
    await server.close();
    return { label: OPENCODE_LABEL, reason: 'its first start showed no composer, or installed no plugin, within 120 s' };
  } finally {
    await stop(first);
  }
  return client;
}
