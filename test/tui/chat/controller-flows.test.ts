import { describe, expect, it } from 'vitest';
import { FakeAppServerClient, fakeThread } from './fake-client.js';
import { createHarness, PNG_ATTACHMENT, running, text } from './harness.js';

describe('more flows', () => {
  it('a message typed before the session is ready is sent once the thread exists', async () => {
    let release: () => void = () => undefined;
    const client = new FakeAppServerClient();
    const h = await createHarness({ client, deferStart: true });
    client.once(
      'thread/start',
      () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              thread: fakeThread(),
              model: 'fake-model',
              modelProvider: 'fake',
              cwd: '/work',
              approvalPolicy: 'on-request',
              approvalsReviewer: 'user',
              sandbox: { type: 'workspaceWrite' },
              reasoningEffort: null,
            });
        }),
    );
    const started = h.ctrl.start();
    await h.settle();
    h.type('early');
    h.press('enter');
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['early']);
    release();
    await started;
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('early')]]);
  });

  it('while a `!` command runs, a message waits for it', async () => {
    const h = await createHarness();
    let finish: () => void = () => undefined;
    h.shell.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve({ output: '', exitCode: 0 }))));
    h.type('!sleep 1');
    h.press('enter');
    h.type('after shell');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['after shell']);
    finish();
    await h.settle();
    expect(h.client.requestsOf('turn/start').map((p) => p.input)).toEqual([[text('after shell')]]);
  });

  it('Ctrl+V with no clipboard image shows the error', async () => {
    const h = await createHarness();
    h.ctrlKey('v');
    await h.settle();
    expect(h.cellTexts()).toEqual(['■ Failed to paste image: No image on the clipboard.']);
  });

  it('Ctrl+V attaches the clipboard image', async () => {
    const h = await createHarness({ clipboard: async () => ({ attachment: { ...PNG_ATTACHMENT, path: '/tmp/clip.png' } }) });
    h.ctrlKey('v');
    await h.settle();
    expect(h.composerText()).toBe('[Image #1] ');
    expect(h.store.getState().composer.attachments.map((a) => a.path)).toEqual(['/tmp/clip.png']);
  });

  it('an @ token asks for a file search and the results reach the popup', async () => {
    const h = await createHarness({ searchFiles: async (q) => [`src/${q}.ts`] });
    h.type('see @rout');
    await h.settle();
    const popup = h.store.getState().composer.popup;
    expect(popup?.kind).toBe('file');
    expect(popup?.kind === 'file' ? popup.results : []).toEqual(['src/rout.ts']);
  });

  it('/new starts a new thread and clears the screen; /help lists commands', async () => {
    const h = await createHarness();
    h.type('/help');
    h.press('enter');
    expect(h.cellTexts()[0]).toContain('/compact');
    h.type('/new');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('thread/start')).toHaveLength(2);
    expect(h.cellTexts()).toEqual(['• Started a new conversation.']);
    expect(h.store.getState().transcriptGeneration).toBe(1);
  });

  it('a queued `/compact` is dispatched as a command when dequeued', async () => {
    const h = await createHarness();
    await running(h);
    h.type('/compact');
    h.press('tab');
    expect(h.store.getState().queued.map((q) => q.text)).toEqual(['/compact']);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)).toMatchObject({ input: [], kind: 'compact' });
  });

  it('a paste while the approval modal is open goes to the composer', async () => {
    const h = await createHarness();
    await running(h);
    void h.client.serverRequest('item/commandExecution/requestApproval', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      itemId: 'c',
      startedAtMs: 0,
      commandActions: [],
      command: 'ls',
      cwd: '/work',
      reason: null,
    });
    h.paste('kept text');
    expect(h.composerText()).toBe('kept text');
    expect(h.store.getState().modal).not.toBeNull();
  });
});

describe('Esc ownership', () => {
  it('a pending steer does not steal the Vim insert-mode Esc; the next Esc interrupts', async () => {
    const h = await createHarness({ vimEnabled: true });
    h.type('ifirst');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-1');
    h.type('isteer');
    h.press('enter');
    await h.settle();
    expect(h.store.getState().pendingSteers).toHaveLength(1);
    h.type('idraft');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    expect(h.store.getState().composer.vim.mode).toBe('normal');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toHaveLength(1);
  });

  it('Esc closes an open popup instead of interrupting', async () => {
    const h = await createHarness();
    await running(h);
    h.type('/');
    expect(h.store.getState().composer.popup?.kind).toBe('command');
    h.press('escape');
    await h.settle();
    expect(h.client.requestsOf('turn/interrupt')).toEqual([]);
    expect(h.store.getState().composer.popup).toBeNull();
  });
});

describe('skills', () => {
  it('loads skills into the $ popup and sends a skill item for a mention', async () => {
    const h = await createHarness({ loadSkills: async () => [{ name: 'deploy', path: '/s/deploy/SKILL.md', description: 'Ship it' }] });
    h.type('$dep');
    expect(h.store.getState().composer.popup?.kind).toBe('skill');
    h.press('tab');
    h.type('now');
    h.press('enter');
    await h.settle();
    const input = h.client.requestsOf('turn/start')[0]?.input ?? [];
    expect(input.at(-1)).toEqual({ type: 'skill', name: 'deploy', path: '/s/deploy/SKILL.md' });
    expect(input[0]).toMatchObject({ type: 'text' });
    h.type('/skills');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('$deploy');
  });
});

describe('skills added while the session runs', () => {
  it('a `$` re-reads the skills, so the popup offers one added since the start', async () => {
    let skills = [{ name: 'deploy', path: '/s/deploy/SKILL.md' }];
    let loads = 0;
    const h = await createHarness({
      loadSkills: async () => {
        loads += 1;
        return skills;
      },
    });
    await h.settle();
    const afterStart = loads;
    skills = [...skills, { name: 'review', path: '/s/review/SKILL.md' }];
    h.type('$');
    await h.settle();
    expect(loads).toBe(afterStart + 1);
    expect(h.store.getState().composer.popup?.kind).toBe('skill');
    h.type('rev');
    h.press('tab');
    expect(h.store.getState().composer.ta.text).toBe('$review ');
    expect(h.store.getState().composer.mentions.map((m) => m.name)).toEqual(['review']);
  });
});

describe('attachments the runtime could not read', () => {
  it('a warning notification becomes a warning cell; the turn goes on', async () => {
    const h = await createHarness();
    h.paste('/tmp/a.png');
    h.type('look');
    h.press('enter');
    await h.settle();
    h.startTurn('turn-1');
    h.client.emit('warning', { threadId: 'thread-1', turnId: 'turn-1', message: 'Tiller could not read the local image.' });
    expect(h.cellTexts()).toContain('⚠ Tiller could not read the local image.');
    expect(h.store.getState().activeTurn?.id).toBe('turn-1');
  });
});

describe('draining a queued `!` command', () => {
  it('runs it, and sends the next queued message only after it finished', async () => {
    const h = await createHarness();
    let finish: () => void = () => undefined;
    h.shell.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve({ output: 'x', exitCode: 0 }))));
    await running(h);
    h.type('!make');
    h.press('tab');
    h.type('then this');
    h.press('tab');
    expect(h.store.getState().queued.map((q) => [q.text, q.action])).toEqual([
      ['!make', 'runShell'],
      ['then this', 'plain'],
    ]);
    h.completeTurn('turn-1');
    await h.settle();
    expect(h.shell).toHaveBeenCalledWith('make');
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
    finish();
    await h.settle();
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([text('then this')]);
  });
});

describe('composer width', () => {
  it('setComposerWidth makes Up move by wrapped row in the composer', async () => {
    const h = await createHarness();
    h.ctrl.setComposerWidth(5);
    h.type('aaaa bbbb cccc');
    h.press('up');
    expect(h.store.getState().composer.ta.cursor).toBe(9);
    h.press('up');
    expect(h.store.getState().composer.ta.cursor).toBe(4);
  });
});

describe('restoring a draft with a large paste', () => {
  it('an interrupt merges messages into the composer and the paste stays a placeholder with its text', async () => {
    const h = await createHarness();
    await running(h);
    h.type('queued');
    h.press('tab');
    const big = 'p'.repeat(1500);
    h.paste(big);
    expect(h.composerText()).toBe('[Pasted Content 1500 chars]');
    h.completeTurn('turn-1', 'interrupted');
    await h.settle();
    expect(h.composerText()).toBe('queued\n[Pasted Content 1500 chars]');
    expect(h.store.getState().composer.pendingPastes).toEqual([{ placeholder: '[Pasted Content 1500 chars]', text: big }]);
    h.press('enter');
    await h.settle();
    const label = { byteRange: { start: 7, end: 1507 }, placeholder: '[Pasted Content 1500 chars]' };
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([{ type: 'text', text: `queued\n${big}`, text_elements: [label] }]);
  });

  it('Alt+Up pops a queued message above a draft whose large pastes stay placeholders', async () => {
    const h = await createHarness();
    await running(h);
    h.type('one');
    h.press('tab');
    const a = 'a'.repeat(1200);
    const b = 'b'.repeat(1200);
    h.paste(a);
    h.paste(b);
    expect(h.composerText()).toBe('[Pasted Content 1200 chars][Pasted Content 1200 chars] #2');
    h.press('up', { alt: true });
    expect(h.composerText()).toBe('one\n[Pasted Content 1200 chars][Pasted Content 1200 chars] #2');
    expect(h.store.getState().queued).toEqual([]);
    // Deleting one placeholder drops its own payload only.
    h.press('backspace');
    expect(h.store.getState().composer.pendingPastes.map((p) => p.text)).toEqual([a]);
    h.completeTurn('turn-1');
    await h.settle();
    h.press('enter');
    await h.settle();
    const label = { byteRange: { start: 4, end: 1204 }, placeholder: '[Pasted Content 1200 chars]' };
    expect(h.client.requestsOf('turn/start').at(-1)?.input).toEqual([{ type: 'text', text: `one\n${a}`, text_elements: [label] }]);
  });
});

describe('other notifications', () => {
  it('a blocking hook shows a warning; token usage reaches /status; other threads are ignored', async () => {
    const h = await createHarness();
    await running(h);
    h.client.emit('hook/completed', {
      threadId: 'thread-1',
      turnId: 'turn-1',
      run: {
        id: 'turn-1:userPromptSubmit',
        eventName: 'userPromptSubmit',
        handlerType: 'command',
        executionMode: 'sync',
        scope: 'turn',
        source: 'user',
        sourcePath: '/home/config.toml',
        displayOrder: 0,
        status: 'blocked',
        statusMessage: 'Blocked by policy.',
        startedAt: 0,
        completedAt: 0,
        durationMs: 0,
        entries: [],
      },
      tillerAdditionalContexts: 0,
    });
    expect(h.cellTexts().at(-1)).toBe('⚠ Blocked by policy.');
    const usage = { inputTokens: 12, cachedInputTokens: 2, outputTokens: 5, reasoningOutputTokens: 1, totalTokens: 17 };
    h.client.emit('thread/tokenUsage/updated', { threadId: 'thread-1', turnId: 'turn-1', tokenUsage: { total: usage, last: usage } });
    h.client.emit('turn/completed', {
      threadId: 'other-thread',
      turn: {
        id: 'turn-1',
        items: [],
        itemsView: 'notLoaded',
        status: 'failed',
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      },
    });
    expect(h.store.getState().activeTurn?.id).toBe('turn-1');
    h.completeTurn('turn-1');
    h.type('/status');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('Tokens:    12 input (2 cached), 5 output (1 reasoning)');
    // fake-model has no known window: no percentage.
    expect(h.cellTexts().at(-1)).toContain('Context:   window of fake-model not known');
    expect(h.ctrl.exitLine()).toBe(
      'To continue this session, run tiller resume thread-1\nToken usage so far: total=15 input=10 (+ 2 cached) output=5 (reasoning 1)',
    );
  });

  it('/status gives the context window left of a gpt-5 model; the exit line has no usage before any', async () => {
    const h = await createHarness();
    expect(h.ctrl.exitLine()).toBeNull();
    await running(h);
    // The model the thread runs (the footer's), as thread/start or /model set it.
    h.store.setState((s) => ({ footer: { ...s.footer, model: 'gpt-5.1-codex' } }));
    const last = { inputTokens: 140_000, cachedInputTokens: 0, outputTokens: 2_000, reasoningOutputTokens: 0, totalTokens: 142_000 };
    h.client.emit('thread/tokenUsage/updated', { threadId: 'thread-1', turnId: 'turn-1', tokenUsage: { total: last, last } });
    h.completeTurn('turn-1');
    h.type('/status');
    h.press('enter');
    expect(h.cellTexts().at(-1)).toContain('Context:   50% left (142,000 of 272,000 tokens in the last request)');
  });
});
