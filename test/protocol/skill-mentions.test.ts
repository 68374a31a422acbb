/** `$name` skill mentions: one reading for the TUI (the skill items it sends) and the runtime (the files it injects). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillMentionNames } from '../../src/protocol/skill-mentions.js';
import { resolveSkills } from '../../src/runtime/context/skills.js';
import { buildUserInputs } from '../../src/tui/routing.js';
import { tempDir } from '../runtime/support/harness.js';

describe('skillMentionNames', () => {
  it('reads names with dots, after punctuation, without a full stop, not inside words or after $', () => {
    expect(skillMentionNames('use $deploy.prod. then ($lint), $a-b_c and $deploy.prod again')).toEqual(['deploy.prod', 'lint', 'a-b_c']);
    expect(skillMentionNames('cost$5 and US$ $$x, an e-mail a$b')).toEqual([]);
    expect(skillMentionNames('$start\n$next')).toEqual(['start', 'next']);
  });

  it('the TUI sends a skill item for exactly the names the runtime injects', async () => {
    const dir = tempDir();
    const names = ['deploy.prod', 'lint', 'a-b_c', 'start'];
    for (const name of names) {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, 'SKILL.md'), `# ${name}`);
    }
    const skills = names.map((name) => ({ name, path: join(dir, name, 'SKILL.md') }));
    for (const text of ['use $deploy.prod. then ($lint)', '$a-b_c,$start', 'x$lint $nope', '"$start"']) {
      const sent = buildUserInputs({ text, textElements: [], attachments: [], mentions: [] }, { skills }).flatMap((item) =>
        item.type === 'skill' ? [item.name] : [],
      );
      const injected = (await resolveSkills([{ type: 'text', text, text_elements: [] }], dir)).map((skill) => skill.name);
      expect(sent).toEqual(injected);
    }
  });
});
