/**
 * The package as a user gets it. `npm pack` runs in a copy of the tree (its prepack builds dist/
 * there, so the working tree's dist/, which other tests are running, is never cleaned under them);
 * the tarball is installed globally into a scratch prefix (runtime dependencies from the registry,
 * `bin/tiller` linked through a symlink); the installed `tiller` then runs outside any clone, with
 * no API key.
 */
import { execFile } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
/** Not copied to the packing tree: installed or generated things, and VCS data. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'coverage', '.tiller-test']);
const INSTALL_TIMEOUT_MS = 300_000;
const RUN_TIMEOUT_MS = 60_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function mustRun(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeout: number }): Promise<Run> {
  const result = await run(file, args, options);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * This environment without what an enclosing `npm test` or `npx` exported (npm_config_prefix,
 * npm_config_local_prefix and the like point at this repository); cache, registry, TLS and proxy
 * settings stay.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const settings = ['cache', 'registry', 'userconfig', 'globalconfig', 'cafile', 'ca', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl'];
  const keep = new Set(settings.map((name) => `npm_config_${name}`));
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) || keep.has(key.toLowerCase())));
}

let scratch = '';
let tarballEntries: string[] = [];
let installed = '';
/** What `npm install -g` of the tarball printed. */
let installOutput: Run = { code: 0, stdout: '', stderr: '' };
let packedManifest: { scripts?: Record<string, string> } = {};
/** Where the installed `tiller` runs: no clone around it, no API key, its own home. */
let workspace = '';
let userEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'tiller-pack-'));
  const tree = join(scratch, 'tree');
  cpSync(ROOT, tree, {
    recursive: true,
    filter: (source) => {
      const [top = ''] = relative(ROOT, source).split(sep);
      return !NOT_COPIED.has(top) && !top.endsWith('.tgz');
    },
  });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  const env = npmEnv();
  const packed = join(scratch, 'packed');
  mkdirSync(packed);
  await mustRun('npm', ['pack', '--pack-destination', packed, '--no-audit', '--no-fund'], { cwd: tree, env, timeout: INSTALL_TIMEOUT_MS });
  const tarballs = readdirSync(packed).filter((file) => file.endsWith('.tgz'));
  expect(tarballs).toHaveLength(1);
  const tarball = join(packed, tarballs[0] ?? '');
  const listing = await mustRun('tar', ['-tzf', tarball], { cwd: scratch, env, timeout: RUN_TIMEOUT_MS });
  tarballEntries = listing.stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.replace(/^package\//, ''));

  const prefix = join(scratch, 'prefix');
  installOutput = await mustRun('npm', ['install', '-g', tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: scratch,
    env,
    timeout: INSTALL_TIMEOUT_MS,
  });
  installed = join(prefix, 'bin', 'tiller');
  packedManifest = JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', ...PKG.name.split('/'), 'package.json'), 'utf8'));

  workspace = mkdtempSync(join(tmpdir(), 'tiller-pack-workspace-'));
  const home = mkdtempSync(join(tmpdir(), 'tiller-pack-home-'));
  userEnv = { PATH: process.env.PATH, HOME: home, SHELL: '/bin/sh', TMPDIR: tmpdir(), TILLER_HOME: home };
}, INSTALL_TIMEOUT_MS);

function tiller(args: string[]): Promise<Run> {
  return run(installed, args, { cwd: workspace, env: userEnv, timeout: RUN_TIMEOUT_MS });
}

describe(`npm pack + npm install -g (${PKG.name})`, () => {
  it('installs without a word about install scripts: the packed manifest has no prepare script', () => {
    expect(Object.keys(packedManifest.scripts ?? {})).not.toContain('prepare');
    expect(`${installOutput.stdout}\n${installOutput.stderr}`).not.toMatch(/install-scripts|prepare/);
  });

  it('the tarball holds bin/, dist/ (bundle and shell-parser wasm), README.md and LICENSE; no src/, test/ or source maps', () => {
    for (const file of [
      'package.json',
      'bin/tiller',
      'dist/tiller.mjs',
      'dist/tree-sitter.wasm',
      'dist/tree-sitter-bash.wasm',
      'README.md',
      'LICENSE',
    ]) {
      expect(tarballEntries).toContain(file);
    }
    const tops = new Set(tarballEntries.map((entry) => entry.split('/')[0]));
    expect([...tops].sort()).toEqual(['LICENSE', 'README.md', 'bin', 'dist', 'package.json']);
    expect(tarballEntries.filter((entry) => entry.endsWith('.map'))).toEqual([]);
  });

  it('links `tiller` through a symlink and installs none of the bundled (dev) dependencies', () => {
    expect(lstatSync(installed).isSymbolicLink()).toBe(true);
    const packageDir = join(installed, '..', '..', 'lib', 'node_modules', ...PKG.name.split('/'));
    expect(realpathSync(installed)).toBe(join(realpathSync(packageDir), 'bin', 'tiller'));
    const modules = join(packageDir, 'node_modules');
    const names = readdirSync(modules).flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name],
    );
    expect(names).toContain('sharp');
    // Native, so installed beside the bundle rather than inside it (exec_command's pty).
    expect(names).toContain('@lydell/node-pty');
    expect(names.filter((name) => name in PKG.devDependencies)).toEqual([]);
  });

  it(
    '`tiller --version` prints the package version',
    async () => {
      expect(await tiller(['--version'])).toEqual({ code: 0, stdout: `tiller ${PKG.version}\n`, stderr: '' });
    },
    RUN_TIMEOUT_MS,
  );

  it(
    '`tiller exec "hello"` with no API key answers with the embedded offline model and exits 0',
    async () => {
      const result = await tiller(['exec', '--skip-git-repo-check', 'hello']);
      expect(result.stderr).toContain('tiller-offline');
      expect(result).toMatchObject({ code: 0 });
      expect(result.stdout).toContain('“hello”');
      expect(result.stdout).toContain('I am the offline model');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'the shell parser loads from the installed dist/ (web-tree-sitter is not installed): a read-only command runs, a redirect is declined',
    async () => {
      const args = ['exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', '-a', 'untrusted'];
      const commands = async (prompt: string) => {
        const result = await tiller([...args, prompt]);
        expect(result.code, result.stderr).toBe(0);
        const events = result.stdout
          .split('\n')
          .filter((line) => line.length > 0)
          .map(
            (line) =>
              JSON.parse(line) as {
                type: string;
                item?: { type: string; exit_code?: number | null; aggregated_output?: string; status?: string };
              },
          );
        return events.filter((e) => e.type === 'item.completed' && e.item?.type === 'command_execution').map((e) => e.item);
      };
      const [echo] = await commands('run: echo packaged');
      expect(echo).toMatchObject({ exit_code: 0, status: 'completed' });
      expect(echo?.aggregated_output).toContain('packaged');
      const [redirect] = await commands('run: echo packaged > out.txt');
      expect(redirect).toMatchObject({ status: 'declined', exit_code: null });
      expect(readdirSync(workspace)).not.toContain('out.txt');
    },
    RUN_TIMEOUT_MS,
  );
});
