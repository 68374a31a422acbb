/** AGENTS.md in the TUI: /status lists the thread's files, thread warnings, /init; and `tiller PROMPT -i IMAGE`. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadStartResult } from '../../../../src/protocol/api.js';
import { INIT_PROMPT } from '../../../../src/runtime/core/project-instructions.js';
import { INIT_EXISTS_MESSAGE } from '../../../../src/tui/chat/commands/local-commands.js';
import { FakeAppServerClient, fakeThread } from '../fake-client.js';
import { createHarness, PNG_ATTACHMENT, text } from '../harness.js';

function threadStart(extra: Partial<ThreadStartResult>, id = 'thread-1'): ThreadStartResult {
  return {
    thread: fakeThread(id),
    model: 'fake-model',
    modelProvider: 'fake',
    cwd: '/work',
    approvalPolicy: 'on-request',
    approvalsReviewer: 'user',
    sandbox: { type: 'workspaceWrite' },
    reasoningEffort: null,
    ...extra,
  };
}

const FILES = [
  { path: '/home/me/.tiller/AGENTS.md', bytes: 120, fileBytes: 120 },
  { path: '/work/AGENTS.md', bytes: 2000, fileBytes: 5000 },
];

describe('/status and the thread’s AGENTS.md files', () => {
  it('lists each file with its size, a cut one as sent of total', async () => {
    const client = new FakeAppServerClient().once('thread/start', () => threadStart({ tillerInstructions: FILES, tillerWarnings: [] }));
    const h = await createHarness({ client });
    h.type('/status');
    h.press('enter');
    await h.settle();
    const status = h.cellTexts().at(-1)!;
    expect(status).toContain(
      'AGENTS.md: /home/me/.tiller/AGENTS.md (120 bytes)\n' +
        '           /work/AGENTS.md (2000 of 5000 bytes, cut to project_doc_max_bytes)',
    );
  });

  it('says none when the thread has no AGENTS.md', async () => {
    const h = await createHarness();
    h.type('/status');
    h.press('enter');
    await h.settle();
    expect(h.cellTexts().at(-1)).toContain('AGENTS.md: none');
  });

  it('shows thread/start’s warnings, again for a new thread', async () => {
    const warning = 'AGENTS.md instructions are over project_doc_max_bytes (32768 bytes): /work/AGENTS.md cut to 2000 of 5000 bytes';
    const client = new FakeAppServerClient().always('thread/start', () =>
      threadStart({ tillerInstructions: FILES, tillerWarnings: [warning] }),
    );
    const h = await createHarness({ client });
    expect(h.cellTexts()).toEqual([`⚠ ${warning}`]);
    h.type('/new');
    h.press('enter');
    await h.settle();
    expect(h.cellTexts()).toEqual(['• Started a new conversation.', `⚠ ${warning}`]);
  });
});

describe('/init', () => {
  it('sends the prompt asking the model to write AGENTS.md when the directory has none', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tiller-init-'));
    const h = await createHarness({ cwd });
    h.type('/init');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text(INIT_PROMPT)]]);
    expect(INIT_PROMPT).toContain('AGENTS.md');
    expect(h.cellTexts()).toEqual([`› ${INIT_PROMPT}`]);
  });

  it('refuses, in a cell, when AGENTS.md already exists there; nothing is sent', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tiller-init-'));
    writeFileSync(join(cwd, 'AGENTS.md'), '# Ours\n');
    const h = await createHarness({ cwd });
    h.type('/init');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.cellTexts()).toEqual([`• ${INIT_EXISTS_MESSAGE}`]);
  });
});

describe('the first message from the command line', () => {
  it('`tiller PROMPT` sends it as the first turn once the thread started', async () => {
    const h = await createHarness({ initialInput: { text: 'fix the build', attachments: [] } });
    expect(h.client.requests.map((r) => r.method)).toEqual(['initialize', 'thread/start', 'turn/start']);
    expect(h.client.requestsOf('turn/start')[0]!.input).toEqual([text('fix the build')]);
    expect(h.cellTexts()).toEqual(['› fix the build']);
    expect(h.composerText()).toBe('');
  });

  it('is sent as typed: a leading `!` or `/` is text for the model', async () => {
    const h = await createHarness({ initialInput: { text: '!ls /status', attachments: [] } });
    expect(h.client.requestsOf('turn/start')[0]!.input).toEqual([text('!ls /status')]);
    expect(h.shell).not.toHaveBeenCalled();
  });

  it('-i images go with it, before the text', async () => {
    const h = await createHarness({ initialInput: { text: 'what is this', attachments: [PNG_ATTACHMENT] } });
    expect(h.client.requestsOf('turn/start')[0]!.input).toEqual([{ type: 'localImage', path: '/tmp/a.png' }, text('what is this')]);
  });

  it('-i with no prompt: the images wait in the composer and nothing is sent', async () => {
    const h = await createHarness({ initialInput: { text: '', attachments: [PNG_ATTACHMENT] } });
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.composerText()).toBe('[Image #1] ');
    expect(h.store.getState().composer.attachments.map((a) => a.path)).toEqual(['/tmp/a.png']);
  });

  it('goes back into the composer when the session cannot start', async () => {
    const client = new FakeAppServerClient().once('thread/start', () => {
      throw new Error('no server');
    });
    const h = await createHarness({ client, initialInput: { text: 'fix the build', attachments: [] } });
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.cellTexts()).toEqual(['■ Failed to start a session: no server']);
    expect(h.composerText()).toBe('fix the build');
  });
});
