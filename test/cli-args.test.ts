import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeDirectory, COMMANDS, execOverrides, parseExecArgs, routeCommand } from '../src/cli-args.js';
import { failedTurnExitCode, promptWithStdin } from '../src/runtime/exec/main.js';

describe('routeCommand', () => {
  it('names a command only by the first word; anything else is the TUI with every argument', () => {
    expect(COMMANDS).toEqual(['exec', 'resume', 'app-server', 'inspect', 'help']);
    expect(routeCommand(['resume', '--last'])).toEqual({ command: 'resume', argv: ['--last'] });
    expect(routeCommand(['exec', '--json', 'x'])).toEqual({ command: 'exec', argv: ['--json', 'x'] });
    expect(routeCommand(['app-server'])).toEqual({ command: 'app-server', argv: [] });
    expect(routeCommand(['inspect', 'f.json'])).toEqual({ command: 'inspect', argv: ['f.json'] });
    expect(routeCommand(['help'])).toEqual({ command: 'help' });
    expect(routeCommand(['-h'])).toEqual({ command: 'help' });
    expect(routeCommand(['--version'])).toEqual({ command: 'version' });
    expect(routeCommand(['fix the build'])).toEqual({ command: 'tui', argv: ['fix the build'] });
    expect(routeCommand(['explain', 'exec'])).toEqual({ command: 'tui', argv: ['explain', 'exec'] });
    expect(routeCommand(['-m', 'x', 'exec'])).toEqual({ command: 'tui', argv: ['-m', 'x', 'exec'] });
    expect(routeCommand([])).toEqual({ command: 'tui', argv: [] });
  });
});

describe('parseExecArgs: the flags added with the shared parser', () => {
  it('-C/--cd and -p/--profile are present only when given', () => {
    expect(parseExecArgs(['-C', '/repo', '-p', 'work', 'q'])).toEqual({
      json: false,
      model: null,
      baseUrl: null,
      approvalPolicy: null,
      sandboxMode: null,
      addDirs: [],
      images: [],
      prompt: 'q',
      profile: 'work',
      cd: '/repo',
    });
    expect(parseExecArgs(['--cd=/a', '--profile=p', 'q'])).toMatchObject({ cd: '/a', profile: 'p' });
    expect(parseExecArgs(['q'])).not.toHaveProperty('cd');
    expect(parseExecArgs(['q'])).not.toHaveProperty('profile');
    expect(parseExecArgs(['-C'])).toEqual({ error: 'missing value for --cd' });
    expect(parseExecArgs(['-p'])).toEqual({ error: 'missing value for --profile' });
  });

  it('keeps exec’s wording: long names, and the --help hint for an unknown option', () => {
    expect(parseExecArgs(['-m'])).toEqual({ error: 'missing value for --model' });
    expect(parseExecArgs(['--json=1', 'q'])).toEqual({ error: '--json takes no value' });
    expect(parseExecArgs(['-x', 'q'])).toEqual({ error: "unknown option '-x'. Try 'tiller exec --help'." });
    expect(parseExecArgs(['--yolo', 'q'])).toMatchObject({ sandboxMode: 'danger-full-access', approvalPolicy: 'never' });
    expect(parseExecArgs(['--bogus', '--help'])).toEqual({ help: true });
  });

  it('execOverrides passes only what was given, the profile included', () => {
    const args = parseExecArgs(['-p', 'work', '-m', 'x', '--full-auto', '--add-dir', '/d', 'q']);
    if ('error' in args || 'help' in args) throw new Error('parse failed');
    expect(execOverrides(args)).toEqual({ profile: 'work', model: 'x', approvalPolicy: 'on-request', sandboxMode: 'workspace-write', addDirs: ['/d'] });
    const plain = parseExecArgs(['q']);
    if ('error' in plain || 'help' in plain) throw new Error('parse failed');
    expect(execOverrides(plain)).toEqual({});
  });
});

describe('changeDirectory (-C)', () => {
  const start = process.cwd();
  afterEach(() => process.chdir(start));

  it('enters the directory, or says why it cannot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiller-cd-'));
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(changeDirectory(join(dir, 'missing'))).toBe(`no such directory: ${join(dir, 'missing')}`);
    expect(changeDirectory(file)).toBe(`not a directory: ${file}`);
    expect(process.cwd()).toBe(start);
    expect(changeDirectory(dir)).toBeNull();
    expect(process.cwd()).toBe(realpathSync(dir));
  });
});

describe('exec: stdin beside a prompt, and exit codes', () => {
  it('the piped text follows the prompt in one message, delimited; empty stdin adds nothing', () => {
    expect(promptWithStdin('explain this', 'line 1\nline 2\n')).toBe('explain this\n\n<stdin>\nline 1\nline 2\n</stdin>');
    expect(promptWithStdin('explain this', ' \n')).toBe('explain this');
  });

  it('3 for a refused key (401, 403), 4 for a server never reached, else 1', () => {
    const error = (message: string, codexErrorInfo: Parameters<typeof failedTurnExitCode>[0] extends infer E ? E extends { codexErrorInfo: infer I } ? I : never : never) => ({
      message,
      codexErrorInfo,
      additionalDetails: null,
    });
    expect(failedTurnExitCode(error('unexpected status 401: bad key', 'unauthorized'))).toBe(3);
    expect(failedTurnExitCode(error('unexpected status 403: forbidden', 'unauthorized'))).toBe(3);
    expect(failedTurnExitCode(error('unexpected status 404: no such model', 'other'))).toBe(1);
    expect(failedTurnExitCode(error('error sending request: connection refused', { httpConnectionFailed: { httpStatusCode: null } }))).toBe(4);
    expect(failedTurnExitCode(error('exceeded retry limit, last error: 503', { responseTooManyFailedAttempts: { httpStatusCode: 503 } }))).toBe(1);
    expect(failedTurnExitCode(error('unexpected status 404: no route', 'other'))).toBe(1);
    expect(failedTurnExitCode(error('bad', 'badRequest'))).toBe(1);
    expect(failedTurnExitCode(null)).toBe(1);
  });
});
