import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeDirectory, COMMANDS, execOverrides, parseExecArgs, parseTuiArgs, routeCommand } from '../src/runtime/cli-args.js';
import { failedTurnExitCode, promptWithStdin } from '../src/runtime/exec/main.js';

describe('routeCommand', () => {
  it('names a command only by the first word; anything else is the TUI with every argument', () => {
    expect(COMMANDS).toEqual(['exec', 'resume', 'review', 'app-server', 'inspect', 'diff', 'help']);
    expect(routeCommand(['review', '--base', 'main'])).toEqual({ command: 'review', argv: ['--base', 'main'] });
    expect(routeCommand(['resume', '--last'])).toEqual({ command: 'resume', argv: ['--last'] });
    expect(routeCommand(['exec', '--json', 'x'])).toEqual({ command: 'exec', argv: ['--json', 'x'] });
    expect(routeCommand(['app-server'])).toEqual({ command: 'app-server', argv: [] });
    expect(routeCommand(['inspect', 'f.json'])).toEqual({ command: 'inspect', argv: ['f.json'] });
    expect(routeCommand(['diff', '--turn', '2'])).toEqual({ command: 'diff', argv: ['--turn', '2'] });
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
    expect(execOverrides(args)).toEqual({
      profile: 'work',
      model: 'x',
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      addDirs: ['/d'],
    });
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
    const error = (
      message: string,
      codexErrorInfo: Parameters<typeof failedTurnExitCode>[0] extends infer E
        ? E extends { codexErrorInfo: infer I }
          ? I
          : never
        : never,
    ) => ({
      message,
      codexErrorInfo,
      additionalDetails: null,
    });
    expect(failedTurnExitCode(error('unexpected status 401: bad key', 'unauthorized'))).toBe(3);
    expect(failedTurnExitCode(error('unexpected status 403: forbidden', 'unauthorized'))).toBe(3);
    expect(failedTurnExitCode(error('unexpected status 404: no such model', 'other'))).toBe(1);
    expect(failedTurnExitCode(error('error sending request: connection refused', { httpConnectionFailed: { httpStatusCode: null } }))).toBe(
      4,
    );
    expect(
      failedTurnExitCode(error('exceeded retry limit, last error: 503', { responseTooManyFailedAttempts: { httpStatusCode: 503 } })),
    ).toBe(1);
    expect(failedTurnExitCode(error('unexpected status 404: no route', 'other'))).toBe(1);
    expect(failedTurnExitCode(error('bad', 'badRequest'))).toBe(1);
    expect(failedTurnExitCode(null)).toBe(1);
  });
});

describe('parseExecArgs: the command line of the Codex SDK and Codex users', () => {
  const parse = (argv: string[]) => {
    const args = parseExecArgs(argv);
    if ('error' in args || 'help' in args) throw new Error(`parse failed: ${JSON.stringify(args)}`);
    return args;
  };

  it('--experimental-json is --json', () => {
    expect(parse(['--experimental-json', 'q'])).toMatchObject({ json: true, prompt: 'q' });
    expect(parseExecArgs(['--experimental-json=1'])).toEqual({ error: '--experimental-json takes no value' });
  });

  it('-C/--cd, -s/--sandbox, --add-dir, -i/--image, -m as Codex spells them', () => {
    expect(parse(['--cd', '/w', '--sandbox', 'read-only', '--add-dir', '/extra', '--image', 'a.png', '-m', 'gpt', 'q'])).toMatchObject({
      cd: '/w',
      sandboxMode: 'read-only',
      addDirs: ['/extra'],
      images: ['a.png'],
      model: 'gpt',
    });
    expect(parse(['-C/w', '-sworkspace-write', '-ib.png', 'q'])).toMatchObject({
      cd: '/w',
      sandboxMode: 'workspace-write',
      images: ['b.png'],
    });
    expect(parseExecArgs(['--sandbox', 'all'])).toEqual({ error: '--sandbox takes one of read-only, workspace-write, danger-full-access' });
  });

  it('-c/--config key=value, in order, as written; a value without = is a usage error', () => {
    expect(
      parse(['-c', 'model_reasoning_effort=high', '--config', 'sandbox_workspace_write.network_access=true', '--config=model="o3"', 'q'])
        .config,
    ).toEqual(['model_reasoning_effort=high', 'sandbox_workspace_write.network_access=true', 'model="o3"']);
    expect(parseExecArgs(['-c', 'model'])).toEqual({ error: "--config takes key=value, not 'model'" });
    expect(parseExecArgs(['-c'])).toEqual({ error: 'missing value for --config' });
    expect(parse(['q'])).not.toHaveProperty('config');
  });

  it('--output-schema and -o/--output-last-message are resolved from where exec started', () => {
    const args = parse(['--output-schema', 'schema.json', '-o', 'out/last.txt', 'q']);
    expect(args.outputSchema).toBe(join(process.cwd(), 'schema.json'));
    expect(args.outputLastMessage).toBe(join(process.cwd(), 'out/last.txt'));
    expect(parse(['--output-last-message=/tmp/l', 'q']).outputLastMessage).toBe('/tmp/l');
    expect(parseExecArgs(['--output-schema'])).toEqual({ error: 'missing value for --output-schema' });
  });

  it('--skip-git-repo-check and --ephemeral are present only when given', () => {
    expect(parse(['--skip-git-repo-check', '--ephemeral', 'q'])).toMatchObject({ skipGitRepoCheck: true, ephemeral: true });
    expect(parse(['q'])).not.toHaveProperty('skipGitRepoCheck');
    expect(parse(['q'])).not.toHaveProperty('ephemeral');
  });

  it('the SDK’s resume form: flags before `resume ID`, --image after it, the prompt from stdin', () => {
    const argv = [
      '--experimental-json',
      '--config',
      'openai_base_url="http://127.0.0.1:1/v1"',
      '--cd',
      '/w',
      '--skip-git-repo-check',
      'resume',
      'th-1',
      '--image',
      'a.png',
    ];
    expect(parse(argv)).toMatchObject({
      json: true,
      cd: '/w',
      skipGitRepoCheck: true,
      resume: { threadId: 'th-1' },
      images: ['a.png'],
      prompt: null,
    });
    expect(parse(['resume', '--last', '--ephemeral', 'go on'])).toMatchObject({ resume: { last: true }, prompt: 'go on', ephemeral: true });
  });

  it('Codex’s flags that mean nothing here are accepted and named once, with or without their values', () => {
    const args = parse([
      '--color',
      'never',
      '--thread-source',
      'sdk',
      '--color=always',
      '--enable',
      'x',
      '--disable',
      'y',
      '--cyber-access-program',
      'standard',
      '--strict-config',
      '--local-provider',
      'ollama',
      '--trust',
      '--approve-for-me',
      '--dangerously-bypass-hook-trust',
      '--ignore-user-config',
      '--ignore-rules',
      '--all',
      'q',
    ]);
    expect(args.prompt).toBe('q');
    expect(args.ignored).toEqual([
      '--color',
      '--thread-source',
      '--enable',
      '--disable',
      '--cyber-access-program',
      '--strict-config',
      '--local-provider',
      '--trust',
      '--approve-for-me',
      '--dangerously-bypass-hook-trust',
      '--ignore-user-config',
      '--ignore-rules',
      '--all',
    ]);
    expect(parseExecArgs(['--color'])).toEqual({ error: 'missing value for --color' });
    expect(parse(['q'])).not.toHaveProperty('ignored');
    // A flag Tiller cannot honour and must not pretend to: connecting to another app server.
    expect(parseExecArgs(['--remote', 'ws://x', 'q'])).toEqual({ error: "unknown option '--remote'. Try 'tiller exec --help'." });
  });

  it('the TUI keeps -c as --continue and knows none of exec’s flags', () => {
    expect(parseTuiArgs(['-c'])).toMatchObject({ session: { kind: 'latest' } });
    expect(parseTuiArgs(['--output-schema', 'x'])).toBe("unknown option '--output-schema'");
    expect(parseTuiArgs(['--color', 'never'])).toBe("unknown option '--color'");
  });

  it('the TUI takes --config key=value (long form only), in order, next to -c as --continue', () => {
    expect(parseTuiArgs(['-c', '--config', 'model_provider=ollama', '--config=model="qwen3:8b"', 'hi'])).toEqual({
      overrides: {},
      session: { kind: 'latest' },
      config: ['model_provider=ollama', 'model="qwen3:8b"'],
      prompt: 'hi',
    });
    expect(parseTuiArgs(['--config', 'model_provider'])).toBe("option '--config' takes key=value (not 'model_provider')");
    expect(parseTuiArgs(['--config'])).toBe("option '--config' needs a value");
  });
});
