import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { agentLines } from '../../src/tui/components/lines.js';
import { KeyParser } from '../../src/tui/keys/parser.js';
import { currentTheme, onThemeChange, palette, parseBackgroundReply, setTheme, themeForBackground } from '../../src/tui/theme.js';
import { loadConfig } from '../../src/runtime/config.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const color = new Chalk({ level: 1 });

afterEach(() => setTheme('dark'));

describe('the terminal background (OSC 11)', () => {
  it('reads the answer in its 1- to 4-digit forms, and nothing else', () => {
    expect(parseBackgroundReply('11;rgb:ffff/ffff/ffff')).toEqual([1, 1, 1]);
    expect(parseBackgroundReply('11;rgb:0/0/0')).toEqual([0, 0, 0]);
    expect(parseBackgroundReply('11;rgba:8080/8080/8080/ffff')![0]).toBeCloseTo(0.502, 2);
    expect(parseBackgroundReply('10;rgb:ffff/ffff/ffff')).toBeNull();
    expect(parseBackgroundReply('0;title')).toBeNull();
  });

  it('a white or pale background is light; black, dark blue and mid grey are dark', () => {
    expect(themeForBackground([1, 1, 1])).toBe('light');
    expect(themeForBackground([0.99, 0.96, 0.89])).toBe('light');
    expect(themeForBackground([0, 0, 0])).toBe('dark');
    expect(themeForBackground([0, 0.17, 0.21])).toBe('dark');
    expect(themeForBackground([0.5, 0.5, 0.5])).toBe('dark');
  });

  it('the key parser turns the answer (BEL or ST ended) into a background event, never into keys', () => {
    const parser = new KeyParser();
    expect(parser.feed(Buffer.from('\x1b]11;rgb:ffff/ffff/ffff\x07'), 0)).toEqual([{ type: 'background', rgb: [1, 1, 1] }]);
    expect(parser.feed(Buffer.from('\x1b]11;rgb:0000/0000/0000\x1b\\x'), 0)).toEqual([
      { type: 'background', rgb: [0, 0, 0] },
      expect.objectContaining({ type: 'key', name: 'char', char: 'x' }),
    ]);
    expect(parser.feed(Buffer.from('\x1b]4;1;rgb:ffff/0000/0000\x07'), 0)).toEqual([]);
  });
});

describe('the light theme', () => {
  it('draws code in blue instead of cyan, numbers in red instead of yellow', () => {
    expect(palette(color, 'dark').code('x')).toBe(color.cyan('x'));
    expect(palette(color, 'light').code('x')).toBe(color.blue('x'));
    expect(palette(color, 'light').number('1')).toBe(color.red('1'));
  });

  it('rows drawn after the change use it, and listeners are told once per change', () => {
    let told = 0;
    const off = onThemeChange(() => told++);
    const dark = agentLines('use `npm test`', 40, color).join('\n');
    expect(dark).toContain(color.cyan('npm test'));
    setTheme('light');
    setTheme('light');
    expect(told).toBe(1);
    expect(currentTheme()).toBe('light');
    expect(agentLines('use `npm test`', 40, color).join('\n')).toContain(color.blue('npm test'));
    off();
  });

  it('config `theme` takes auto, dark or light; anything else is a warning naming it, and auto applies', () => {
    const home = mkdtempSync(join(tmpdir(), 'tiller-theme-'));
    writeFileSync(join(home, 'config.toml'), 'theme = "light"\n');
    expect(loadConfig({}, { TILLER_HOME: home }).theme).toBe('light');
    writeFileSync(join(home, 'config.toml'), 'theme = "solarized"\n');
    const config = loadConfig({}, { TILLER_HOME: home });
    expect(config.theme).toBe('auto');
    expect(config.warnings.join('\n')).toMatch(/theme.*(auto|dark|light)/);
  });
});
