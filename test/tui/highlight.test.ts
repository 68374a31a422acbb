import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createHighlighter } from '../../src/tui/highlight.js';

const c = new Chalk({ level: 1 });
const highlighter = createHighlighter();

describe('highlighting through lowlight with our colour map', () => {
  it('colours keywords, strings, numbers, names and comments as before', () => {
    const out = highlighter.highlight('function add(a) { return a + 1; } // sum\nconst s = "x";', 'js', c);
    expect(out).toContain(c.magenta('function'));
    expect(out).toContain(c.cyan('add'));
    expect(out).toContain(c.yellow('1'));
    expect(out).toContain(c.dim.italic('// sum'));
    expect(out).toContain(c.green('"x"'));
  });

  it('keeps the code exactly, characters HTML would escape included', () => {
    const samples: Array<[string, string]> = [
      ['ts', 'if (a < b && b > c) { x = "<div>&amp;</div>"; }'],
      ['python', 'def f(x):\n    """doc\n    string"""\n    return x ** 2  # square'],
      ['html', '<a href="x">&lt;b&gt;</a>'],
      ['bash', 'echo "$HOME" | grep -v \'x\' > /dev/null'],
      ['rust', 'fn main() {\n    /* multi\n       line */\n    println!("{}", 1);\n}'],
    ];
    for (const [language, code] of samples) expect(stripVTControlCharacters(highlighter.highlight(code, language, c))).toBe(code);
  });

  it('nests styles: a keyword inside a dim meta line keeps its own colour', () => {
    const out = highlighter.highlight('#include <stdio.h>', 'c', c);
    expect(out).toContain(c.magenta('include'));
    expect(out.startsWith('\x1b[2m')).toBe(true);
  });

  it('knows languages by name and alias, highlight.js 11 has them all; an unknown one is refused', () => {
    for (const name of ['js', 'typescript', 'sh', 'py', 'dockerfile', 'toml', 'yaml', 'diff'])
      expect(highlighter.supportsLanguage(name)).toBe(true);
    expect(highlighter.supportsLanguage('nolang')).toBe(false);
  });

  it('follows the chalk level it is given: no colour at level 0', () => {
    const code = 'const a = 1;';
    expect(highlighter.highlight(code, 'js', new Chalk({ level: 0 }))).toBe(code);
  });
});
