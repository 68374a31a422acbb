import { describe, expect, it } from 'vitest';
import {
  SLASH_COMMANDS,
  commandPopupRows,
  filterCommands,
  findCommand,
  isCommandPrefix,
  isKnownCommand,
  parseSlash,
} from '../../src/tui/composer/slash-commands.js';

describe('parseSlash', () => {
  it('splits a bare command', () => {
    expect(parseSlash('/compact')).toEqual({ name: 'compact', rest: '', restIndex: 8, restByteOffset: 8 });
  });

  it('takes the rest after the whitespace that follows the name, later lines included', () => {
    const parsed = parseSlash('/diff   src/a.ts\nmore');
    expect(parsed).toMatchObject({ name: 'diff', rest: 'src/a.ts\nmore', restIndex: 8 });
  });

  it('ends the name at a newline', () => {
    expect(parseSlash('/new\nhello')).toMatchObject({ name: 'new', rest: 'hello' });
  });

  it('gives the rest offset in UTF-8 bytes', () => {
    const text = '/é rest';
    const parsed = parseSlash(text)!;
    expect(parsed.name).toBe('é');
    expect(parsed.restIndex).toBe(3);
    expect(parsed.restByteOffset).toBe(4);
    expect(Buffer.from(text).subarray(parsed.restByteOffset).toString()).toBe('rest');
  });

  it('a leading space makes it plain text', () => {
    expect(parseSlash(' /compact')).toBeNull();
  });

  it('a name containing a slash is a path, not a command', () => {
    expect(parseSlash('/usr/bin/foo --x')).toBeNull();
  });

  it('a bare slash or non-slash text is not a command', () => {
    expect(parseSlash('/')).toBeNull();
    expect(parseSlash('/ compact')).toBeNull();
    expect(parseSlash('hello /new')).toBeNull();
  });

  it('parses unknown names too (the caller reports them as unrecognized)', () => {
    expect(parseSlash('/foo bar')).toMatchObject({ name: 'foo', rest: 'bar' });
    expect(isKnownCommand('foo')).toBe(false);
  });
});

describe('the command table', () => {
  it('holds the commands Tiller implements, each described', () => {
    expect(SLASH_COMMANDS.map((c) => c.name)).toEqual([
      'new',
      'resume',
      'fork',
      'compact',
      'init',
      'model',
      'approvals',
      'vim',
      'diff',
      'undo',
      'redo',
      'review',
      'findings',
      'status',
      'inspect',
      'clear',
      'skills',
      'mcp',
      'help',
      'feedback',
      'ps',
      'stop',
      'rename',
      'export',
      'quit',
      'exit',
    ]);
    for (const c of SLASH_COMMANDS) expect(c.description.length).toBeGreaterThan(5);
  });

  it('commands that replace or rewrite the conversation are unavailable during a task', () => {
    expect(findCommand('new')?.availableDuringTask).toBe(false);
    expect(findCommand('review')?.availableDuringTask).toBe(false);
    expect(findCommand('resume')?.availableDuringTask).toBe(false);
    expect(findCommand('fork')?.availableDuringTask).toBe(false);
    expect(findCommand('compact')?.availableDuringTask).toBe(false);
    expect(findCommand('clear')?.availableDuringTask).toBe(false);
    expect(findCommand('diff')?.availableDuringTask).toBe(true);
    expect(findCommand('quit')?.availableDuringTask).toBe(true);
    expect(findCommand('vim')?.availableDuringTask).toBe(true);
    expect(findCommand('approvals')?.availableDuringTask).toBe(true);
  });

  it('knows /exit as well as /quit', () => {
    expect(isKnownCommand('quit')).toBe(true);
    expect(isKnownCommand('exit')).toBe(true);
    expect(findCommand('exit')?.description).toBe('exit Tiller');
  });

  it('says whether a typed name is a prefix of a command', () => {
    expect(isCommandPrefix('')).toBe(true);
    expect(isCommandPrefix('co')).toBe(true);
    expect(isCommandPrefix('compactx')).toBe(false);
  });
});

describe('filterCommands', () => {
  it('an empty filter lists every command in presentation order', () => {
    expect(filterCommands('').map((m) => m.command.name)).toEqual(SLASH_COMMANDS.map((c) => c.name));
  });

  it('prefix matches come first, in presentation order', () => {
    const names = filterCommands('c').map((m) => m.command.name);
    expect(names.slice(0, 2)).toEqual(['compact', 'clear']);
  });

  it('an exact name ranks before longer prefix matches', () => {
    expect(filterCommands('new')[0]?.command.name).toBe('new');
  });

  it('then names that contain the filter, highlighted where it occurs; no subsequence matches', () => {
    const matches = filterCommands('pro');
    expect(matches.map((m) => m.command.name)).toEqual(['approvals']);
    expect(matches[0]?.indices).toEqual([2, 3, 4]);
    expect(filterCommands('stt')).toEqual([]);
    expect(filterCommands('cpt')).toEqual([]);
  });

  it('ranks an exact name, then prefixes, then substrings', () => {
    expect(filterCommands('it').map((m) => m.command.name)).toEqual(['init', 'quit', 'exit']);
    expect(filterCommands('it').map((m) => m.indices)).toEqual([
      [2, 3],
      [2, 3],
      [2, 3],
    ]);
    expect(
      filterCommands('e')
        .map((m) => m.command.name)
        .slice(0, 1),
    ).toEqual(['export']);
  });

  it('is case-insensitive and returns nothing when nothing matches', () => {
    expect(filterCommands('VI')[0]?.command.name).toBe('vim');
    expect(filterCommands('zzz')).toEqual([]);
  });

  it('gives prefix highlight indices', () => {
    expect(filterCommands('dif')[0]).toMatchObject({ command: { name: 'diff' }, indices: [0, 1, 2] });
  });
});

describe('commandPopupRows', () => {
  it('labels rows with the slash and shifts the highlight past it', () => {
    const [row] = commandPopupRows('st', { taskRunning: false });
    expect(row).toEqual({
      label: '/status',
      description: findCommand('status')!.description,
      highlight: [1, 2],
      disabled: false,
    });
  });

  it('marks commands unavailable while a task runs', () => {
    const rows = commandPopupRows('', { taskRunning: true });
    expect(rows.find((r) => r.label === '/new')?.disabled).toBe(true);
    expect(rows.find((r) => r.label === '/diff')?.disabled).toBe(false);
    expect(commandPopupRows('', { taskRunning: false }).every((r) => !r.disabled)).toBe(true);
  });
});
