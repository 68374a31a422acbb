/**
 * A wrong base URL in the real bin: the retries are announced with their reason, and the turn ends in
 * one error that names the URL, the cause and what to check.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { typeSlowly } from './helpers.js';

let pty: TillerPty | null = null;
afterEach(() => {
  pty?.kill();
  pty = null;
});

describe('connection errors on screen', { timeout: 60_000 }, () => {
  it('a refused connection ends in one message with the URL, ECONNREFUSED and a hint', async () => {
    const closed = await FakeResponsesServer.start();
    await closed.close();
    const home = mkdtempSync(join(tmpdir(), 'tiller-e2e-conn-'));
    // The announced stream retries only: the silent request retries before each would add seconds of backoff.
    writeFileSync(join(home, 'config.toml'), 'stream_max_retries = 2\nrequest_max_retries = 0\n');
    pty = startTiller({ env: { TILLER_HOME: home, OPENAI_BASE_URL: closed.baseUrl, OPENAI_API_KEY: 'dummy' } });
    await pty.waitFor('Ask Tiller to do anything');
    await typeSlowly(pty, 'hi');
    pty.press('enter');
    const screen = await pty.waitFor((s) => s.includes('Is the server running') && !s.includes('esc to interrupt'));
    const flat = screen.replace(/\s+/g, ' ');
    expect(flat).toContain('exceeded retry limit, last error: error sending request to');
    expect(flat).toContain(`${closed.baseUrl}/responses: connection refused (ECONNREFUSED`);
    // One message: not repeated when the turn ends.
    expect(flat.split('exceeded retry limit').length - 1).toBe(1);
  });
});
