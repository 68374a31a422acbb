/**
 * The `$` popup of the real bin lists the skills with the description from their YAML front matter
 * (the parser is loaded lazily, from its own chunk of the bundle).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionPerTest } from './helpers.js';

const openSession = sessionPerTest();

describe('skills in the composer', { timeout: 60_000 }, () => {
  it('`$` offers each skill with its front-matter description on one line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tiller-e2e-skills-'));
    mkdirSync(join(home, 'skills', 'deploy'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'deploy', 'SKILL.md'),
      '---\nname: deploy\ndescription: >\n  Ship the "main" build\n  to production\n---\n# Deploy\n',
    );
    const { pty } = await openSession({ env: { TILLER_HOME: home } });
    pty.write('$');
    const screen = await pty.waitFor('Ship the "main" build to production');
    expect(screen).toContain('deploy');
  });
});
