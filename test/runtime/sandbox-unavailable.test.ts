/**
 * A machine with no sandbox: Tiller says so once, clearly, and asks before every command, even
 * under `never`; it never silently runs one unsandboxed. (Its own file: availability is probed
 * once a process, and this one must see no bwrap.)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, tempDir, text } from './support/harness.js';

process.env.TILLER_SANDBOX_BWRAP = join(tempDir(), 'no-bwrap-here');

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('no sandbox to be had', () => {
  it('one warning, then every command is asked, under never too', async () => {
    const ws = tempDir();
    h = await startHarness({ config: { approvalPolicy: 'never', sandboxMode: 'workspace-write' }, cwd: ws });
    const asked: string[] = [];
    h.server.setServerRequestHandler(async (req) => {
      asked.push((req.params as { command: string }).command);
      return { decision: 'decline' };
    });
    h.fake.enqueue(
      { functionCall: { name: 'shell', arguments: { command: 'touch one' }, callId: 'c1' } },
      { functionCall: { name: 'shell', arguments: { command: 'touch two' }, callId: 'c2' } },
      { text: 'done' },
    );
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    await h.log.waitFor('turn/completed');
    expect(asked).toEqual(['touch one', 'touch two']);
    expect(existsSync(join(ws, 'one'))).toBe(false);
    const warnings = h.log.of('warning').map((w) => w.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^No sandbox for shell commands: .*no-bwrap-here.*\. Tiller will ask before every command it runs\.$/);
  });
});
