/** /ps, /stop, /rename and /export: the pure text builders, the argument parsing and what each sends. */
import { describe, expect, it } from 'vitest';
import type { TillerCommandSession } from '../../../../src/protocol/api.js';
import {
  commandSessionsText,
  formatRunning,
  NO_BACKGROUND_COMMANDS,
  NOTHING_TO_EXPORT,
  parseStopArgs,
  RENAME_USAGE,
  SessionCommands,
  type SessionCommandsHost,
  STOP_USAGE,
  stoppedText,
} from '../../../../src/tui/chat/commands/session-commands.js';
import type { NewCell, TranscriptCell } from '../../../../src/tui/store-types.js';

const session = (over: Partial<TillerCommandSession> = {}): TillerCommandSession => ({
  id: 4242,
  command: "/bin/bash -lc 'npm run dev'",
  startedAtMs: 0,
  runningMs: 65_000,
  lastLine: 'listening on :3000',
  exited: false,
  exitCode: null,
  ...over,
});

function host(over: Partial<SessionCommandsHost> = {}): SessionCommandsHost & { shown: NewCell[]; calls: unknown[][] } {
  const shown: NewCell[] = [];
  const calls: unknown[][] = [];
  return {
    shown,
    calls,
    threadId: () => 'thread-1',
    cells: () => [],
    cell: (cell) => shown.push(cell),
    commandSessions: async () => [session()],
    stopCommandSessions: async (threadId, id) => {
      calls.push(['stop', threadId, id]);
      return id === null ? [1, 2] : [];
    },
    renameThread: async (threadId, name) => void calls.push(['rename', threadId, name]),
    cwd: '/work',
    ...over,
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const texts = (cells: NewCell[]): string[] => cells.map((c) => ('text' in c ? c.text : c.kind));

describe('/ps', () => {
  it('lists id, the script without its shell wrapper, the running time and the last line', () => {
    expect(commandSessionsText([session(), session({ id: 7, command: 'tail -f log', lastLine: '', exited: true, exitCode: 0 })])).toBe(
      [
        'Background commands (2):',
        '  4242  npm run dev  (running 1m 05s)',
        '      ↳ listening on :3000',
        '  7  tail -f log  (exited 0)',
        '      ↳ (no output yet)',
      ].join('\n'),
    );
    expect(commandSessionsText([])).toBe(NO_BACKGROUND_COMMANDS);
  });

  it('formats running times', () => {
    expect([formatRunning(999), formatRunning(42_000), formatRunning(185_000), formatRunning(3_720_000)]).toEqual([
      '0s',
      '42s',
      '3m 05s',
      '1h 02m',
    ]);
  });

  it('without a thread says none run, without asking the server', async () => {
    const h = host({ threadId: () => null, commandSessions: async () => expect.unreachable() });
    new SessionCommands(h).ps();
    await flush();
    expect(texts(h.shown)).toEqual([NO_BACKGROUND_COMMANDS]);
  });
});

describe('/stop', () => {
  it('parses all, an id, and refuses anything else', () => {
    expect(parseStopArgs('')).toEqual({ id: null });
    expect(parseStopArgs(' all ')).toEqual({ id: null });
    expect(parseStopArgs('4242')).toEqual({ id: 4242 });
    expect(parseStopArgs('x1')).toEqual({ error: STOP_USAGE });
    expect(parseStopArgs('1 2')).toEqual({ error: STOP_USAGE });
  });

  it('says what it stopped, or that nothing matched', async () => {
    expect(stoppedText([4242], 4242)).toBe('Stopped 1 background command (4242).');
    expect(stoppedText([1, 2], null)).toBe('Stopped 2 background commands (1, 2).');
    expect(stoppedText([], null)).toBe(NO_BACKGROUND_COMMANDS);
    expect(stoppedText([], 9)).toBe('No background command has id 9. /ps lists them.');
    const h = host();
    const commands = new SessionCommands(h);
    commands.stop('');
    commands.stop('9');
    commands.stop('nine');
    await flush();
    expect(h.calls).toEqual([
      ['stop', 'thread-1', null],
      ['stop', 'thread-1', 9],
    ]);
    expect(texts(h.shown)).toEqual([
      STOP_USAGE,
      'Stopped 2 background commands (1, 2).',
      'No background command has id 9. /ps lists them.',
    ]);
  });
});

describe('/rename', () => {
  it('sends the name and says how to resume by it; no name shows the usage and sends nothing', async () => {
    const h = host();
    const commands = new SessionCommands(h);
    commands.rename('');
    commands.rename(' bug  hunt ');
    await flush();
    expect(h.calls).toEqual([['rename', 'thread-1', 'bug  hunt']]);
    expect(texts(h.shown)).toEqual([RENAME_USAGE, 'Session named "bug hunt". Resume it with: tiller resume "bug hunt"']);
  });

  it('a refusal from the server is shown as an error', async () => {
    const h = host({ renameThread: async () => Promise.reject(new Error('thread name must be at most 100 characters')) });
    new SessionCommands(h).rename('x');
    await flush();
    expect(h.shown).toEqual([{ kind: 'error', text: 'Could not name the session: thread name must be at most 100 characters' }]);
  });
});

describe('/export', () => {
  const cells: TranscriptCell[] = [
    { kind: 'user', id: 1, text: 'hi', textElements: [], attachmentLabels: [], turnId: 't' },
    { kind: 'agent', id: 2, markdown: 'hello' },
  ];

  it('writes to the path under the cwd, or copies when there is none', async () => {
    const written: Array<[string, string]> = [];
    const copied: string[] = [];
    const h = host({
      cells: () => cells,
      writeExport: async (path, text) => void written.push([path, text]),
      copyToClipboard: async (text) => {
        copied.push(text);
        return { via: 'OSC 52' };
      },
    });
    const commands = new SessionCommands(h);
    commands.export('out/chat.md');
    commands.export('--json');
    await flush();
    expect(written).toEqual([['/work/out/chat.md', '# Tiller session thread-1\n\n## User\n\nhi\n\n## Assistant\n\nhello\n']]);
    expect(JSON.parse(copied[0]!).entries).toHaveLength(2);
    expect(texts(h.shown)).toEqual([
      'Exported the transcript to /work/out/chat.md.',
      `Copied the transcript as JSON (${[...copied[0]!].length} characters) to the clipboard via OSC 52.`,
    ]);
  });

  it('an empty conversation, an unknown option and an existing file each say so', async () => {
    const empty = host();
    new SessionCommands(empty).export('a.md');
    expect(texts(empty.shown)).toEqual([NOTHING_TO_EXPORT]);
    const exists = Object.assign(new Error('EEXIST'), { code: 'EEXIST' });
    const h = host({ cells: () => cells, writeExport: async () => Promise.reject(exists) });
    const commands = new SessionCommands(h);
    commands.export('a.md --yaml');
    commands.export('a.md');
    await flush();
    expect(texts(h.shown)).toEqual([
      'Unknown option --yaml. Usage: /export [PATH] [--json]',
      '/work/a.md already exists: /export does not overwrite; give another path.',
    ]);
  });
});
