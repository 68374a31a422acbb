/**
 * The API key never reaches a file: a server's 401 echoes it, the user pastes it into a prompt,
 * and after the turn, its error cell, the history and a /feedback report, no file under
 * TILLER_HOME holds it. Real config loading, runtime, HTTP server, controller and file writers.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { loadConfig } from '../../src/runtime/config.js';
import { ChatController } from '../../src/tui/chat/controller.js';
import { writeFeedbackReport } from '../../src/tui/chat/commands/feedback.js';
import { HistoryFile, historyFilePath } from '../../src/tui/composer/history.js';
import { initialComposerState } from '../../src/tui/composer/state.js';
import { charKey, key } from '../../src/tui/keys/types.js';
import { createChatStore, type ChatState, type ChatStore } from '../../src/tui/store.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { probeMedia, TEST_FEEDBACK } from '../tui/chat/harness.js';
import { tempDir } from './support/config.js';

process.env.SHELL = '/bin/sh';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function until(store: ChatStore, pred: (s: ChatState) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!pred(store.getState())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(store.getState().cells)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

it('a 401 that echoes the key, a prompt holding it, history and /feedback: no file under TILLER_HOME contains the key', async () => {
  // No known token shape: only the key registered by loadConfig can catch it.
  const apiKey = `tiller-test-key-${Math.random().toString(36).slice(2)}`;
  const fake = await FakeResponsesServer.start();
  fake.setDefault({
    fault: {
      kind: 'status',
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${apiKey}. Header was: Bearer ${apiKey}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    },
  });
  const home = tempDir('tiller-secrets-');
  writeFileSync(join(home, 'config.toml'), `base_url = "${fake.baseUrl}"\nstream_max_retries = 0\n`);
  const config = loadConfig({}, { TILLER_HOME: home, OPENAI_API_KEY: apiKey });
  expect(config.apiKey).toBe(apiKey);

  const client = createInProcessAppServer({ config, cwd: home });
  const historyFile = new HistoryFile(historyFilePath(home));
  const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia, disablePasteBurst: true }));
  const ctrl = new ChatController({
    client,
    store,
    config,
    cwd: home,
    now: () => Date.now(),
    schedule: (fn, ms) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    runLocalShell: async () => ({ output: '', exitCode: 0 }),
    readClipboardImage: async () => ({ error: 'none' }),
    searchFiles: async () => [],
    history: { append: (text) => historyFile.append(text), loadRecent: () => historyFile.loadRecent() },
    feedback: { environment: TEST_FEEDBACK.environment, save: (report) => writeFeedbackReport(home, report) },
  });
  cleanup = async () => {
    ctrl.dispose();
    await client.close();
    await fake.close();
  };
  await ctrl.start();
  const send = (text: string): void => {
    for (const ch of text) ctrl.handleInput(charKey(ch));
    ctrl.handleInput(key('enter'));
  };

  send(`why is ${apiKey} rejected?`);
  await until(store, (s) => s.activeTurn === null && s.cells.some((c) => c.kind === 'error'), 'the error cell');
  // The key really went to the server, and its answer really quoted it.
  expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${apiKey}`);
  const error = store.getState().cells.find((c) => c.kind === 'error');
  expect(error).toMatchObject({ text: expect.stringContaining('Incorrect API key provided: [REDACTED]') });

  send('/feedback');
  await until(store, (s) => s.cells.some((c) => c.kind === 'info' && c.text.startsWith('Wrote a diagnostic report')), 'the report');
  await historyFile.flush();

  const files = filesUnder(home);
  const history = readFileSync(historyFilePath(home), 'utf8');
  expect(history).toContain('why is [REDACTED] rejected?');
  const [report] = files.filter((f) => f.includes(join(home, 'feedback')));
  expect(report).toBeDefined();
  expect(readFileSync(report!, 'utf8')).toContain('Incorrect API key provided: [REDACTED]');
  for (const file of files) expect({ file, holdsKey: readFileSync(file, 'utf8').includes(apiKey) }).toEqual({ file, holdsKey: false });
});
