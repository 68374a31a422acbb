import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalDecisionOf } from '../../src/runtime/app-server.js';
import { isKnownSafeCommand } from '../../src/runtime/commands/approval.js';
import { parseShellCommand } from '../../src/runtime/commands/parse.js';
import { type Harness, startHarness, tempDir, text } from './support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('approval answers fail closed', () => {
  it('only a known decision counts; anything malformed declines', () => {
    expect(approvalDecisionOf({ decision: 'accept' })).toBe('accept');
    expect(approvalDecisionOf({ decision: 'acceptForSession' })).toBe('acceptForSession');
    expect(approvalDecisionOf({ decision: 'cancel' })).toBe('cancel');
    for (const bad of [{ decision: 'deny' }, {}, 'accept', null, undefined, { decision: null }, []])
      expect(approvalDecisionOf(bad)).toBe('decline');
  });

  it('a client answering with an unknown decision does not run the command', async () => {
    h = await startHarness({ config: { approvalPolicy: 'on-request' } });
    const marker = join(tempDir(), 'marker');
    // A client speaking another dialect: its answer is not a decision Tiller knows.
    h.server.setServerRequestHandler((async () => ({ decision: 'deny' })) as never);
    h.fake.enqueue({ functionCall: { name: 'shell', arguments: { command: `touch ${marker}` }, callId: 'c1' } }, { text: 'ok' });
    await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
    expect((await h.log.waitFor('turn/completed')).turn.status).toBe('completed');
    expect(existsSync(marker)).toBe(false);
    expect(h.log.of('item/completed').find((n) => n.item.type === 'commandExecution')?.item).toMatchObject({ status: 'declined' });
  });
});

describe('untrusted: read-only means read-only', () => {
  it('options that write files or run programs need approval', async () => {
    const safe = async (command: string): Promise<boolean> => isKnownSafeCommand(await parseShellCommand(command));
    for (const c of [
      'git diff --output=/tmp/x',
      'git log --output=f',
      'git diff --ext-diff',
      'git show --textconv HEAD',
      'rg -z foo',
      'rg --search-zip foo',
      'git branch -D x',
      'git branch new-name',
    ])
      expect(await safe(c), c).toBe(false);
    for (const c of ['git branch', 'git branch -a', 'git branch --show-current', 'git diff HEAD~1', 'rg -n foo src'])
      expect(await safe(c), c).toBe(true);
  });
});
