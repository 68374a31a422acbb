import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import {
  DEFAULT_PROJECT_DOC_MAX_BYTES,
  findRepositoryRoot,
  loadProjectInstructions,
  PROJECT_DOC_PREFIX,
} from '../../src/runtime/core/project-instructions.js';
import { conversation, type Harness, helloCompactNext, inputTexts, startHarness, tempDir, text } from './support/harness.js';

/** A repository with AGENTS.md at its root and in `pkg`, worked on from `pkg/src` (which has none). */
function repository(): { root: string; pkg: string; cwd: string; home: string } {
  const root = tempDir('tiller-repo-');
  mkdirSync(join(root, '.git'));
  const pkg = join(root, 'pkg');
  const cwd = join(pkg, 'src');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(root, 'AGENTS.md'), 'Root rules.\n');
  writeFileSync(join(pkg, 'AGENTS.md'), 'Package rules.\n');
  const home = tempDir('tiller-home-');
  writeFileSync(join(home, 'AGENTS.md'), 'My own rules.\n');
  return { root, pkg, cwd, home };
}

describe('AGENTS.md discovery', () => {
  it('global first, then the repository root down to the cwd, each under its path from the root', async () => {
    const { root, pkg, cwd, home } = repository();
    const found = await loadProjectInstructions({ cwd, home });
    expect(found.files).toEqual([
      { path: join(home, 'AGENTS.md'), bytes: 14, fileBytes: 14 },
      { path: join(root, 'AGENTS.md'), bytes: 12, fileBytes: 12 },
      { path: join(pkg, 'AGENTS.md'), bytes: 15, fileBytes: 15 },
    ]);
    expect(found.warnings).toEqual([]);
    expect(found.message).toBe(
      `${PROJECT_DOC_PREFIX}${cwd}\n\n<INSTRUCTIONS>\n` +
        `--- ${join(home, 'AGENTS.md')} (global) ---\nMy own rules.\n\n` +
        '--- AGENTS.md ---\nRoot rules.\n\n' +
        '--- pkg/AGENTS.md ---\nPackage rules.\n' +
        '</INSTRUCTIONS>',
    );
  });

  it('a worktree’s `.git` file marks the root too', async () => {
    const root = tempDir('tiller-wt-');
    writeFileSync(join(root, '.git'), 'gitdir: /elsewhere\n');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    expect(await findRepositoryRoot(join(root, 'a', 'b'))).toBe(root);
  });

  it('outside a repository only the cwd’s own AGENTS.md counts, not its parents’', async () => {
    const parent = tempDir('tiller-norepo-');
    const cwd = join(parent, 'work');
    mkdirSync(cwd);
    writeFileSync(join(parent, 'AGENTS.md'), 'Not for this directory.\n');
    const home = tempDir('tiller-home-');
    expect((await loadProjectInstructions({ cwd, home })).files).toEqual([]);
    writeFileSync(join(cwd, 'AGENTS.md'), 'Here.\n');
    const found = await loadProjectInstructions({ cwd, home });
    expect(found.files.map((f) => f.path)).toEqual([join(cwd, 'AGENTS.md')]);
    expect(found.message).toContain('--- AGENTS.md ---\nHere.\n</INSTRUCTIONS>');
    expect(found.message).not.toContain('Not for this directory');
  });

  it('empty files are skipped; nothing at all means no message', async () => {
    const { root, pkg, cwd, home } = repository();
    writeFileSync(join(home, 'AGENTS.md'), '');
    writeFileSync(join(root, 'AGENTS.md'), '  \n\n');
    const found = await loadProjectInstructions({ cwd, home });
    expect(found.files.map((f) => f.path)).toEqual([join(pkg, 'AGENTS.md')]);
    writeFileSync(join(pkg, 'AGENTS.md'), '');
    expect(await loadProjectInstructions({ cwd, home })).toEqual({ files: [], message: null, warnings: [] });
  });
});

describe('the size cap (project_doc_max_bytes)', () => {
  it('is 32 KiB by default, as in Codex', () => {
    expect(DEFAULT_PROJECT_DOC_MAX_BYTES).toBe(32 * 1024);
  });

  it('cuts the file that crosses it, leaves the later ones out and names both in one warning', async () => {
    const { root, pkg, cwd, home } = repository();
    writeFileSync(join(root, 'AGENTS.md'), 'x'.repeat(100));
    // 14 (global) + 20 of the root's 100; pkg/AGENTS.md gets nothing.
    const found = await loadProjectInstructions({ cwd, home, maxBytes: 34 });
    expect(found.files).toEqual([
      { path: join(home, 'AGENTS.md'), bytes: 14, fileBytes: 14 },
      { path: join(root, 'AGENTS.md'), bytes: 20, fileBytes: 100 },
      { path: join(pkg, 'AGENTS.md'), bytes: 0, fileBytes: 15 },
    ]);
    expect(found.warnings).toEqual([
      `AGENTS.md instructions are over project_doc_max_bytes (34 bytes): ${join(root, 'AGENTS.md')} cut to 20 of 100 bytes; ${join(pkg, 'AGENTS.md')} left out (15 bytes)`,
    ]);
    expect(found.message).toContain(`--- AGENTS.md (cut to 20 of 100 bytes) ---\n${'x'.repeat(20)}\n</INSTRUCTIONS>`);
    expect(found.message).not.toContain('Package rules');
  });

  it('never splits a character', async () => {
    const cwd = tempDir('tiller-utf8-');
    const home = tempDir('tiller-home-');
    writeFileSync(join(cwd, 'AGENTS.md'), 'ab€cd'); // € is 3 bytes: a b [e2 82 ac] c d
    const found = await loadProjectInstructions({ cwd, home, maxBytes: 4 });
    expect(found.files).toEqual([{ path: join(cwd, 'AGENTS.md'), bytes: 2, fileBytes: 7 }]);
    expect(found.message).toContain('---\nab\n</INSTRUCTIONS>');
  });

  it('0 sends none, without a warning', async () => {
    const { cwd, home } = repository();
    expect(await loadProjectInstructions({ cwd, home, maxBytes: 0 })).toEqual({ files: [], message: null, warnings: [] });
  });

  it('is read from config.toml; a bad value is a warning and the default applies', () => {
    const home = tempDir('tiller-home-');
    writeFileSync(join(home, 'config.toml'), 'project_doc_max_bytes = 1000\n');
    expect(loadConfig({}, { TILLER_HOME: home }).projectDocMaxBytes).toBe(1000);
    writeFileSync(join(home, 'config.toml'), 'project_doc_max_bytes = -1\n');
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.projectDocMaxBytes).toBeUndefined();
    expect(config.warnings.join('\n')).toContain('project_doc_max_bytes');
  });
});

describe('AGENTS.md reaches the model', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('as a user message (Codex’s form) before the history of every request of the thread, read once at thread/start', async () => {
    const { root, cwd, home } = repository();
    h = await startHarness({ cwd, config: { home } });
    const started = await h.server.request('thread/start', {});
    expect(started.tillerInstructions?.map((f) => f.path)).toEqual([
      join(home, 'AGENTS.md'),
      join(root, 'AGENTS.md'),
      join(root, 'pkg', 'AGENTS.md'),
    ]);
    expect(started.tillerWarnings).toEqual([]);
    const threadId = started.thread.id;
    // Edited after the thread started: this thread keeps what it read.
    writeFileSync(join(root, 'AGENTS.md'), 'Changed later.\n');
    h.fake.enqueue({ text: 'first' }, { text: 'second' });
    await h.server.request('turn/start', { threadId, input: [text('hello')] });
    await h.log.waitFor('turn/completed');
    await h.server.request('turn/start', { threadId, input: [text('again')] });
    await h.log.waitFor('turn/completed', (p) => p.turn.id !== h!.log.of('turn/completed')[0]!.turn.id);
    const [first, second] = h.fake.requests.slice(-2);
    for (const request of [first!, second!]) {
      const agents = conversation(request.body)[0];
      expect(agents.role).toBe('user');
      expect(agents.content[0].text).toMatch(
        new RegExp(`^# AGENTS\\.md instructions for ${cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n\\n<INSTRUCTIONS>\\n`),
      );
      expect(agents.content[0].text).toContain('Root rules.');
      expect(agents.content[0].text).not.toContain('Changed later.');
    }
    expect(inputTexts(first!.body).slice(1)).toEqual(['hello']);
    expect(inputTexts(second!.body).slice(1)).toEqual(['hello', 'first', 'again']);
    // A new thread reads the files again.
    const next = await h.server.request('thread/start', {});
    h.fake.enqueue({ text: 'third' });
    await h.server.request('turn/start', { threadId: next.thread.id, input: [text('new thread')] });
    await h.log.waitFor('turn/completed', (p) => p.threadId === next.thread.id);
    expect(inputTexts(h.fake.requests.at(-1)!.body)[0]).toContain('Changed later.');
  });

  it('stays in front after /compact replaces the history', async () => {
    const { cwd, home } = repository();
    h = await startHarness({ cwd, config: { home } });
    const last = await helloCompactNext(h);
    expect(conversation(last.body)[0].role).toBe('user');
    expect(inputTexts(last.body)[0]).toContain('Root rules.');
    expect(inputTexts(last.body).slice(1)).toEqual(['Summary of the conversation so far:\nthe summary', 'next']);
  });

  it('a thread with no AGENTS.md sends no such message and reports no files', async () => {
    h = await startHarness();
    const started = await h.server.request('thread/start', {});
    expect(started.tillerInstructions).toEqual([]);
    h.fake.enqueue({ text: 'ok' });
    await h.server.request('turn/start', { threadId: started.thread.id, input: [text('hi')] });
    await h.log.waitFor('turn/completed');
    expect(inputTexts(h.fake.requests[0]!.body)).toEqual(['hi']);
  });
});
