import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSkills, skillDescription } from '../../../src/tui/chat/skills.js';

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

  it('treats a missing directory as no skills', async () => {
    expect(await listSkills(join(tmpdir(), 'tiller-no-such-dir-xyz'))).toEqual([]);
  });

  it('falls back to the first line when the front matter has no description', () => {
    expect(skillDescription('---\nname: x\n---\n\n## Do things\n')).toBe('Do things');
    expect(skillDescription('')).toBeUndefined();
  });
});
