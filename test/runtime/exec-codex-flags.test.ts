/**
 * exec's Codex flags end to end: `-c` overrides (TOML values, dotted keys, checked and laid over
 * config.toml), the Git repository check, `--output-schema`, `-o`, `--ephemeral`, CODEX_API_KEY,
 * and the ignored flags named once. Pure parts called directly; the rest through the real bin.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { checkOverrides, overridesTable } from '../../src/runtime/exec/config-overrides.js';
import {
  insideGitRepo,
  insideTrustedProject,
  NOT_IN_GIT_REPO,
  NOT_IN_GIT_REPO_HINT,
  outputSchemaProblem,
} from '../../src/runtime/exec/main.js';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { childEnv, fakeServerEnv, jsonEvents, ROOT, spawnTiller } from './support/spawn.js';

describe('-c key=value', () => {
  it('values are TOML, else the raw string; dotted keys make tables; a later key wins', () => {
    expect(
      overridesTable([
        'model="o3"',
        'model_reasoning_effort=high',
        'sandbox_workspace_write.network_access=true',
        'sandbox_workspace_write.writable_roots=["/a"]',
        'stream_max_retries=2',
        'model=gpt-x',
        'note = a=b',
      ]),
    ).toEqual({
      model: 'gpt-x',
      model_reasoning_effort: 'high',
      sandbox_workspace_write: { network_access: true, writable_roots: ['/a'] },
      stream_max_retries: 2,
      note: 'a=b',
    });
  });

  it('checked as config.toml is: unknown keys and bad tuning values ignored with a -c warning; a bad critical value is an error', () => {
    expect(checkOverrides(['model_reasoning_effort="high"', 'web_search="live"', 'bogus_key=1', 'stream_max_retries=-1'])).toEqual({
      table: { model_reasoning_effort: 'high', web_search: 'live' },
      warnings: ['-c unknown key bogus_key (ignored)', '-c stream_max_retries: expected a whole number from 0 to 100 (ignored)'],
      error: null,
    });
    expect(checkOverrides(['sandbox_mode="everything"']).error).toBe(
      '-c sandbox_mode: expected one of "read-only", "workspace-write", "danger-full-access"',
    );
    expect(checkOverrides(['openai_base_url="http://127.0.0.1:9/v1"'])).toEqual({
      table: {},
      baseUrl: 'http://127.0.0.1:9/v1',
      warnings: [],
      error: null,
    });
    expect(checkOverrides(['openai_base_url=nowhere']).error).toBe('-c openai_base_url: expected a URL');
  });

  it('laid over config.toml key by key, under the selected profile (as Codex), with or without a file', () => {
    const home = tempDir();
    const env = { TILLER_HOME: home };
    expect(
      loadConfig({ config: checkOverrides(['sandbox_workspace_write.network_access=true', 'model_reasoning_effort="low"']).table }, env),
    ).toMatchObject({
      sandboxNetworkAccess: true,
      reasoningEffort: 'low',
    });
    writeFileSync(
      join(home, 'config.toml'),
      'model = "file-model"\n[sandbox_workspace_write]\nwritable_roots = ["/kept"]\n[profiles.p]\nmodel = "profile-model"\n',
    );
    const over = checkOverrides(['model="cli-model"', 'sandbox_workspace_write.network_access=true']).table;
    expect(loadConfig({ config: over }, env)).toMatchObject({
      model: 'cli-model',
      sandboxWritableRoots: ['/kept'],
      sandboxNetworkAccess: true,
    });
    expect(loadConfig({ config: over, profile: 'p' }, env).model).toBe('profile-model');
    expect(loadConfig({ apiKey: 'codex-key' }, { ...env, OPENAI_API_KEY: 'other' }).apiKey).toBe('codex-key');
  });
});

describe('the Git repository check and --output-schema, called directly', () => {
  it('inside a Git work tree: .git here or above (a worktree’s .git file counts)', () => {
    expect(insideGitRepo(join(ROOT, 'src', 'runtime'))).toBe(true);
    const outside = tempDir();
    expect(insideGitRepo(outside)).toBe(false);
    mkdirSync(join(outside, 'sub'));
    writeFileSync(join(outside, '.git'), 'gitdir: /elsewhere\n');
    expect(insideGitRepo(join(outside, 'sub'))).toBe(true);
  });

  it('the final message must be JSON that follows the schema', () => {
    const check = z.fromJSONSchema({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(outputSchemaProblem(check, '{"n":3}')).toBeNull();
    expect(outputSchemaProblem(check, 'three')).toBe('the final message is not JSON');
    expect(outputSchemaProblem(check, null)).toBe('the turn ended without a final message');
    expect(outputSchemaProblem(check, '{"n":"3"}')).toBe(
      'the final message does not match the schema: ✖ Invalid input: expected number, received string → at n',
    );
  });
});

describe('tiller exec with Codex’s flags', () => {
  let fake: FakeResponsesServer;
  beforeEach(async () => {
    fake = await FakeResponsesServer.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('outside a Git repository: Codex’s message and how to go on, exit 2 (a usage error), nothing sent; --skip-git-repo-check runs it', async () => {
    const dir = tempDir();
    const refused = spawnTiller(['exec', 'q'], fakeServerEnv(fake), dir);
    expect(await refused.exit).toBe(2);
    expect(refused.stderr()).toBe(`${NOT_IN_GIT_REPO}\n${NOT_IN_GIT_REPO_HINT}\n`);
    expect(refused.stderr()).toContain('--skip-git-repo-check');
    expect(fake.requests).toHaveLength(0);
    expect(await spawnTiller(['exec', '--skip-git-repo-check', 'q'], fakeServerEnv(fake), dir).exit).toBe(0);
    // -C moves the check to DIR.
    expect(await spawnTiller(['exec', '-C', dir, 'q'], fakeServerEnv(fake)).exit).toBe(2);
  });

  it('a directory trusted in config.toml ([projects."<path>"] trust_level = "trusted") and the ones under it need no Git repository', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    const env = fakeServerEnv(fake);
    writeFileSync(join(env.TILLER_HOME!, 'config.toml'), `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n`);
    expect(await spawnTiller(['exec', 'q'], env, dir).exit).toBe(0);
    expect(await spawnTiller(['exec', 'q'], env, join(dir, 'sub')).exit).toBe(0);
    writeFileSync(join(env.TILLER_HOME!, 'config.toml'), `[projects.${JSON.stringify(dir)}]\ntrust_level = "untrusted"\n`);
    expect(await spawnTiller(['exec', 'q'], env, dir).exit).toBe(2);
    expect(insideTrustedProject('/a/b', ['/a'])).toBe(true);
    expect(insideTrustedProject('/ab', ['/a'])).toBe(false);
  });

  it('-c model and openai_base_url, CODEX_API_KEY, -o, --ephemeral and the ignored flags, together', async () => {
    fake.enqueue({ text: 'the last word' });
    const env = childEnv({ CODEX_API_KEY: 'codex-key', OPENAI_API_KEY: 'not-this-one' });
    const out = join(tempDir(), 'last.txt');
    const child = spawnTiller(
      [
        'exec',
        '--experimental-json',
        '--color',
        'never',
        '-c',
        `openai_base_url="${fake.baseUrl}"`,
        '-c',
        'model=cli-model',
        '-c',
        'model_reasoning_effort=high',
        '-c',
        'web_search="live"',
        '--ephemeral',
        '-o',
        out,
        '--thread-source',
        'sdk',
        'q',
      ],
      env,
    );
    expect(await child.exit).toBe(0);
    expect(jsonEvents(child.lines).map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(child.stderr()).toBe(
      // `web_search` is Codex's key Tiller reads too (the fake server is no OpenAI provider, so it is not offered).
      'tiller exec: ignoring --color, --thread-source (no meaning in Tiller)\n',
    );
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer codex-key');
    expect(request.body).toMatchObject({ model: 'cli-model', reasoning: { effort: 'high' } });
    expect(request.body).not.toHaveProperty('text');
    expect(readFileSync(out, 'utf8')).toBe('the last word');
    const sessions = join(env.TILLER_HOME!, 'sessions');
    expect(existsSync(sessions) ? readdirSync(sessions, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')) : []).toEqual([]);
  });

  it('--output-schema: text.format sent, a matching answer exits 0, one that does not exits 1 with the reason; a bad file is a usage error', async () => {
    const dir = tempDir();
    const schemaFile = join(dir, 'schema.json');
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    writeFileSync(schemaFile, JSON.stringify(schema));
    fake.enqueue({ text: '{"ok":true}' }, { text: 'yes it is' });
    const good = spawnTiller(['exec', '--output-schema', schemaFile, 'q'], fakeServerEnv(fake));
    expect(await good.exit).toBe(0);
    expect(good.lines).toEqual(['{"ok":true}']);
    expect(fake.requests[0]!.body.text).toEqual({
      verbosity: 'low',
      format: { type: 'json_schema', name: 'codex_output_schema', schema, strict: true },
    });
    const bad = spawnTiller(['exec', '--json', '--output-schema', schemaFile, 'q'], fakeServerEnv(fake));
    expect(await bad.exit).toBe(1);
    expect(bad.stderr()).toBe('tiller: --output-schema: the final message is not JSON\n');
    expect(jsonEvents(bad.lines).at(-1)).toEqual({ type: 'error', message: '--output-schema: the final message is not JSON' });
    writeFileSync(schemaFile, '[1]');
    const unusable = spawnTiller(['exec', '--output-schema', schemaFile, 'q'], fakeServerEnv(fake));
    expect(await unusable.exit).toBe(2);
    expect(unusable.stderr()).toBe(`tiller exec: --output-schema: ${schemaFile} is not a JSON object\n`);
    writeFileSync(schemaFile, `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    const deep = spawnTiller(['exec', '--output-schema', schemaFile, 'q'], fakeServerEnv(fake));
    expect(await deep.exit).toBe(2);
    expect(deep.stderr()).toBe(`tiller exec: --output-schema: ${schemaFile}: a.a.a.a.a.a…: nested deeper than 128 levels\n`);
    expect(fake.requests).toHaveLength(2);
  });
});
