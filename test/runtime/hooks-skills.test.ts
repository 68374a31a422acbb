import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interpretHookRun, runUserPromptSubmitHooks } from '../../src/runtime/core/hooks.js';
import { requiredMcpServers, resolveSkills, skillInjectionText } from '../../src/runtime/context/skills.js';
import { tempDir } from './support/harness.js';

const run = (code: number | null, stdout = '', stderr = '') => ({ code, stdout, stderr, error: null });

describe('UserPromptSubmit hook outcomes', () => {
  it('reads decision, reason and additionalContext', () => {
    expect(interpretHookRun(run(0, '{"decision":"block","reason":"r"}'))).toEqual({ blocked: true, message: 'r', additionalContexts: [] });
    expect(interpretHookRun(run(0, '{"additionalContext":"one"}'))).toEqual({ blocked: false, message: null, additionalContexts: ['one'] });
    expect(interpretHookRun(run(0, '{"additionalContext":["a","b"]}')).additionalContexts).toEqual(['a', 'b']);
    expect(interpretHookRun(run(0, ''))).toEqual({ blocked: false, message: null, additionalContexts: [] });
  });

  it('exit code 2 blocks with stderr as the reason; other failures do not block', () => {
    expect(interpretHookRun(run(2, '', 'denied\n'))).toEqual({ blocked: true, message: 'denied', additionalContexts: [] });
    expect(interpretHookRun(run(1, '{"decision":"block"}'))).toMatchObject({ blocked: false, message: 'hook exited with code 1' });
  });

  it('plain text on stdout is context', () => {
    expect(interpretHookRun(run(0, 'remember X\n'))).toEqual({ blocked: false, message: null, additionalContexts: ['remember X'] });
  });

  it('runs hooks in order; the first block stops the rest', async () => {
    const dir = tempDir();
    const request = {
      session_id: 's',
      turn_id: 't',
      cwd: dir,
      transcript_path: null,
      model: 'm',
      permission_mode: 'default' as const,
      prompt: 'p',
    };
    const outcome = await runUserPromptSubmitHooks(
      [`echo '{"additionalContext":"first"}'`, `exit 2`, `touch ${join(dir, 'ran')}`],
      request,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ blocked: true, additionalContexts: ['first'] });
    expect((await import('node:fs')).existsSync(join(dir, 'ran'))).toBe(false);
  });
});

describe('skills and mentions', () => {
  it('resolves Skill items by path and $name mentions from the skills dir, once each', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'lint'), { recursive: true });
    writeFileSync(join(dir, 'lint', 'SKILL.md'), 'Lint it.');
    const own = join(dir, 'own.md');
    writeFileSync(own, 'Own skill.');
    const skills = await resolveSkills(
      [
        { type: 'skill', name: 'own', path: own },
        { type: 'text', text: 'run $lint and $lint, not $missing or a$b', text_elements: [] },
      ],
      dir,
    );
    expect(skills.map((s) => [s.name, s.contents])).toEqual([
      ['own', 'Own skill.'],
      ['lint', 'Lint it.'],
    ]);
    expect(skillInjectionText(skills[1]!)).toBe(
      `<skill>\n<name>lint</name>\n<path>${join(dir, 'lint', 'SKILL.md')}</path>\nLint it.\n</skill>`,
    );
  });

  it('collects mcp:// servers from mentions and text', () => {
    expect(
      requiredMcpServers([
        { type: 'mention', name: 'a', path: 'mcp://alpha' },
        { type: 'mention', name: 'b', path: 'app://beta' },
        { type: 'text', text: 'see mcp://gamma/x and mcp://alpha', text_elements: [] },
      ]),
    ).toEqual(['alpha', 'gamma']);
  });
});
