import { describe, expect, it } from 'vitest';
import { normalizePastedPath, shellSplit } from '../../../src/tui/media/paste-path.js';

const ctx = { cwd: '/work/project', home: '/home/ada' };

describe('normalizePastedPath', () => {
  it('accepts an absolute path, trimmed', () => {
    expect(normalizePastedPath('  /tmp/shot.png\n', ctx)).toBe('/tmp/shot.png');
  });

  it('resolves a relative path against cwd', () => {
    expect(normalizePastedPath('img/shot.png', ctx)).toBe('/work/project/img/shot.png');
    expect(normalizePastedPath('../shot.png', ctx)).toBe('/work/shot.png');
  });

  it('expands ~ and ~/', () => {
    expect(normalizePastedPath('~/Pictures/a.png', ctx)).toBe('/home/ada/Pictures/a.png');
    expect(normalizePastedPath('~', ctx)).toBe('/home/ada');
  });

  it('does not expand ~user (resolved as a relative name)', () => {
    expect(normalizePastedPath('~bob/a.png', ctx)).toBe('/work/project/~bob/a.png');
  });

  it('strips one pair of surrounding double or single quotes, keeping spaces inside', () => {
    expect(normalizePastedPath('"/tmp/my shot.png"', ctx)).toBe('/tmp/my shot.png');
    expect(normalizePastedPath("'/tmp/my shot.png'", ctx)).toBe('/tmp/my shot.png');
  });

  it('unescapes shell-escaped spaces and other characters', () => {
    expect(normalizePastedPath('/tmp/my\\ shot\\ \\(1\\).png', ctx)).toBe('/tmp/my shot (1).png');
  });

  it('turns a file:// URL into its percent-decoded path', () => {
    expect(normalizePastedPath('file:///tmp/my%20shot.png', ctx)).toBe('/tmp/my shot.png');
    expect(normalizePastedPath('file:///tmp/%E5%9B%BE.png', ctx)).toBe('/tmp/图.png');
    expect(normalizePastedPath('file://localhost/tmp/a.png', ctx)).toBe('/tmp/a.png');
  });

  it('accepts a quoted file:// URL', () => {
    expect(normalizePastedPath("'file:///tmp/a.png'", ctx)).toBe('/tmp/a.png');
  });

  it('refuses file URLs naming another host, and several URLs', () => {
    expect(normalizePastedPath('file://server/share/a.png', ctx)).toBeNull();
    expect(normalizePastedPath('file:///tmp/a.png file:///tmp/b.png', ctx)).toBeNull();
  });

  it('under WSL maps a Windows drive path (as Explorer drops it) to /mnt/<drive>', () => {
    const wsl = { ...ctx, wsl: true };
    expect(normalizePastedPath('C:\\Users\\Ada\\My Pictures\\shot.png', wsl)).toBe('/mnt/c/Users/Ada/My Pictures/shot.png');
    expect(normalizePastedPath('"D:/data/a.png"', wsl)).toBe('/mnt/d/data/a.png');
  });

  it('outside WSL a Windows drive path is not a path', () => {
    expect(normalizePastedPath('C:\\Users\\Ada\\shot.png', ctx)).toBeNull();
  });

  it('refuses more than one word', () => {
    expect(normalizePastedPath('/tmp/a.png /tmp/b.png', ctx)).toBeNull();
    expect(normalizePastedPath('look at /tmp/a.png', ctx)).toBeNull();
    expect(normalizePastedPath('/tmp/a.png\n/tmp/b.png', ctx)).toBeNull();
  });

  it('refuses empty text, empty quotes and unterminated quotes', () => {
    expect(normalizePastedPath('   ', ctx)).toBeNull();
    expect(normalizePastedPath('""', ctx)).toBeNull();
    expect(normalizePastedPath('"/tmp/a.png', ctx)).toBeNull();
  });

  it('refuses text far longer than any path', () => {
    expect(normalizePastedPath(`/${'a'.repeat(5000)}`, ctx)).toBeNull();
  });
});

describe('shellSplit', () => {
  it('splits on whitespace and joins quoted parts into one word', () => {
    expect(shellSplit(`a 'b c'"d e" f\\ g`)).toEqual(['a', 'b cd e', 'f g']);
  });

  it('keeps backslashes inside double quotes unless they escape a special character', () => {
    expect(shellSplit('"a\\b \\"c\\" \\\\"')).toEqual(['a\\b "c" \\']);
  });

  it('keeps everything literal inside single quotes', () => {
    expect(shellSplit("'a\\ b $x'")).toEqual(['a\\ b $x']);
  });

  it('removes backslash-newline', () => {
    expect(shellSplit('ab\\\ncd')).toEqual(['abcd']);
  });

  it('rejects a trailing backslash and unterminated quotes', () => {
    expect(shellSplit('ab\\')).toBeNull();
    expect(shellSplit("'ab")).toBeNull();
    expect(shellSplit('"ab')).toBeNull();
  });

  it('gives no words for blank input', () => {
    expect(shellSplit(' \t\n')).toEqual([]);
  });
});
