/** The /help text: every command and the main keys, in two aligned columns. */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { helpText } from '../../src/tui/chat/commands/commands.js';
import { SLASH_COMMANDS } from '../../src/tui/composer/slash-commands.js';

/** The display column where the description starts on an indented `name  description` row. */
function descriptionColumn(row: string): number {
  const match = /^ {2}\S.*?\S? {2,}(?=\S)/u.exec(row);
  if (match === null) throw new Error(`not a table row: ${JSON.stringify(row)}`);
  return stringWidth(match[0]);
}

describe('helpText', () => {
  it('lists every slash command with its description', () => {
    const text = helpText('linux');
    for (const command of SLASH_COMMANDS) {
      expect(text).toMatch(new RegExp(`^ {2}/${command.name} +${command.description.replace(/[()]/g, '\\$&')}$`, 'm'));
    }
  });

  it('aligns the descriptions of each section in one column', () => {
    const lines = helpText('linux').split('\n');
    const keysAt = lines.indexOf('Keys:');
    expect(lines[0]).toBe('Commands:');
    expect(keysAt).toBeGreaterThan(0);
    for (const section of [lines.slice(1, keysAt), lines.slice(keysAt + 1)]) {
      expect(new Set(section.map(descriptionColumn)).size).toBe(1);
    }
  });

  it('names the keys people need: newline, queue, interrupt, queued edit, history, images, quit', () => {
    const text = helpText('linux');
    expect(text).toMatch(/^ {2}shift \+ enter, ctrl \+ j +new line$/m);
    expect(text).toMatch(/^ {2}tab +queue a follow-up/m);
    expect(text).toMatch(/^ {2}shift \+ tab +next approval mode \(\/approvals to choose one\)$/m);
    expect(text).toMatch(/^ {2}esc +interrupt the model/m);
    expect(text).toMatch(/^ {2}alt \+ ↑ +edit the last queued message$/m);
    expect(text).toMatch(/^ {2}↑ \/ ↓, ctrl \+ r +browse \/ search the message history$/m);
    expect(text).toMatch(/^ {2}ctrl \+ v +paste an image from the clipboard$/m);
    expect(text).toMatch(/^ {2}ctrl \+ c +clear the draft; on an empty draft interrupt the model, or quit when idle$/m);
  });

  it('uses the option key label on macOS', () => {
    expect(helpText('darwin')).toMatch(/^ {2}⌥ \+ ↑ +edit the last queued message$/m);
    expect(helpText('darwin')).not.toContain('alt + ↑');
  });
});
