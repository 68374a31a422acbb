/** The README's slash-command table lists exactly the commands the composer knows. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS } from '../src/tui/composer/slash-commands.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every slash command, and none that does not exist', () => {
    const section = readme.slice(readme.indexOf('## Slash commands'), readme.indexOf('## Configuration'));
    const listed = [...section.matchAll(/^\| (.+?) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`\/([a-z-]+)`/g)].map((m) => m[1]));
    expect(new Set(listed)).toEqual(new Set(SLASH_COMMANDS.map((command) => command.name)));
    const idle = new Set([...section.matchAll(/^\| `\/([a-z-]+)` \|.*\(idle\) \|$/gm)].map((m) => m[1]));
    expect(idle).toEqual(new Set(SLASH_COMMANDS.filter((c) => !c.availableDuringTask).map((c) => c.name)));
  });
});
