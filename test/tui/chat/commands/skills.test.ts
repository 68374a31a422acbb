import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkillFile, stringField } from '../../../../src/protocol/skill-front-matter.js';
import { listSkills, skillDescription } from '../../../../src/tui/chat/commands/skills.js';

describe('listSkills', () => {
  it('lists <dir>/<name>/SKILL.md in name order with descriptions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiller-skills-'));
    for (const [name, body] of [
      ['deploy', '---\nname: deploy\ndescription: "Ship it to prod"\n---\n# Deploy\n'],
      ['audit', '# Audit the code\n\nSteps...'],
      ['no-file', null],
      ['bad name', '# ignored'],
    ] as const) {
      mkdirSync(join(dir, name));
      if (body !== null) writeFileSync(join(dir, name, 'SKILL.md'), body);
    }
    writeFileSync(join(dir, 'loose.md'), 'not a skill');
    expect(await listSkills(dir)).toEqual([
      { name: 'audit', path: join(dir, 'audit', 'SKILL.md'), description: 'Audit the code' },
      { name: 'deploy', path: join(dir, 'deploy', 'SKILL.md'), description: 'Ship it to prod' },
    ]);
  });

  it('reads the skills again when one is added, removed or edited, and only then', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiller-skills-'));
    mkdirSync(join(dir, 'one'));
    writeFileSync(join(dir, 'one', 'SKILL.md'), '# First');
    const first = await listSkills(dir);
    expect(first.map((s) => s.name)).toEqual(['one']);
    // Unchanged on disk: the same list (no file read).
    expect(await listSkills(dir)).toBe(first);
    mkdirSync(join(dir, 'two'));
    writeFileSync(join(dir, 'two', 'SKILL.md'), '# Second');
    expect((await listSkills(dir)).map((s) => s.name)).toEqual(['one', 'two']);
    writeFileSync(join(dir, 'one', 'SKILL.md'), '# First, edited to be longer');
    expect((await listSkills(dir))[0]?.description).toBe('First, edited to be longer');
    rmSync(join(dir, 'two'), { recursive: true });
    expect((await listSkills(dir)).map((s) => s.name)).toEqual(['one']);
  });

  it('treats a missing directory as no skills', async () => {
    expect(await listSkills(join(tmpdir(), 'tiller-no-such-dir-xyz'))).toEqual([]);
  });

  it('falls back to the first line when the front matter has no description', () => {
    expect(skillDescription('---\nname: x\n---\n\n## Do things\n')).toBe('Do things');
    expect(skillDescription('')).toBeUndefined();
  });

  it('reads the description as YAML: quotes, escapes, a folded multi-line value on one line', () => {
    expect(skillDescription(`---\nname: q\ndescription: 'It''s "quoted": really'\n---\nbody`)).toBe('It\'s "quoted": really');
    expect(skillDescription('---\ndescription: "Tab\\tand \\"escaped\\""\n---\n')).toBe('Tab and "escaped"');
    const folded =
      '---\nname: deploy\ndescription: >\n  Ship the build\n  to production\n\n  after the checks.\nmetadata:\n  owner: ops\n---\n# Deploy\n';
    expect(skillDescription(folded)).toBe('Ship the build to production after the checks.');
    const literal = '---\r\ndescription: |\r\n  line one\r\n  line two\r\n---\r\n';
    expect(skillDescription(literal)).toBe('line one line two');
    // A plain scalar that goes on over the next, more indented line.
    expect(skillDescription('---\ndescription: starts here\n  and goes on\n---\n')).toBe('starts here and goes on');
  });

  it('front matter that is not valid YAML gives no description from it: the first line of the text stands in', () => {
    expect(skillDescription('---\ndescription: [unclosed\n---\nThe body line\n')).toBe('The body line');
  });
});

describe('parseSkillFile', () => {
  it('splits front matter from the body and says why a broken one was not read', () => {
    expect(parseSkillFile('---\nname: x\nversion: 2\n---\nText\nmore')).toEqual({
      fields: { name: 'x', version: 2 },
      error: null,
      body: 'Text\nmore',
    });
    expect(parseSkillFile('No front matter\n---\n')).toEqual({ fields: null, error: null, body: 'No front matter\n---\n' });
    expect(parseSkillFile('---\n---\nbody')).toEqual({ fields: {}, error: null, body: 'body' });
    expect(parseSkillFile('---\n- a\n- b\n...\nbody')).toMatchObject({
      fields: null,
      error: expect.stringContaining('not a mapping'),
      body: 'body',
    });
    const dup = parseSkillFile('---\nname: a\nname: b\n---\n');
    expect(dup.fields).toBeNull();
    expect(dup.error).toMatch(/unique/);
  });

  it('keeps values typed as YAML says and custom tags inert', () => {
    const file = parseSkillFile('---\nname: "007"\ncount: 007\nwhen: !!js/function "() => 1"\n---\n');
    expect(stringField(file, 'name')).toBe('007');
    expect(file.fields?.count).toBe(7);
    expect(typeof file.fields?.when).not.toBe('function');
  });
});
