/** Which shell commands are apply_patch invocations, and where a patch may write (Codex's patch safety). */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../../src/protocol/api.js';
import { shellApplyPatch } from '../../../src/runtime/tools/apply-patch/heredoc.js';
import { assessPatch } from '../../../src/runtime/tools/apply-patch/permissions.js';
import { tempDir } from '../support/config.js';

const BODY = '*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch';

describe('shellApplyPatch', () => {
  it('takes apply_patch or applypatch fed a heredoc, optionally after cd <dir> &&', () => {
    expect(shellApplyPatch(`apply_patch <<'PATCH'\n${BODY}\nPATCH`)).toEqual({ patch: BODY, workdir: null });
    expect(shellApplyPatch(`applypatch <<EOF\n${BODY}\nEOF\n`)).toEqual({ patch: BODY, workdir: null });
    expect(shellApplyPatch(`cd foo && apply_patch <<"EOF"\n${BODY}\nEOF`)).toEqual({ patch: BODY, workdir: 'foo' });
    expect(shellApplyPatch(`cd 'foo bar' && apply_patch <<'EOF'\n${BODY}\nEOF`)).toEqual({ patch: BODY, workdir: 'foo bar' });
  });

  it('leaves anything else to the shell, as Codex does', () => {
    for (const prefix of ['cd foo; ', 'cd bar || ', 'cd bar | ', 'echo foo && ', 'cd foo && cd bar && ', 'cd foo bar && ']) {
      expect(shellApplyPatch(`${prefix}apply_patch <<'EOF'\n${BODY}\nEOF`)).toBeNull();
    }
    expect(shellApplyPatch(`apply_patch foo <<'EOF'\n${BODY}\nEOF`)).toBeNull();
    expect(shellApplyPatch(`apply_patch <<'EOF'\n${BODY}\nEOF\necho done`)).toBeNull();
    expect(shellApplyPatch('ls -la')).toBeNull();
  });
});

describe('assessPatch', () => {
  const setup = () => {
    const ws = realpathSync(tempDir('tiller-ws-'));
    const outside = realpathSync(tempDir('tiller-out-'));
    const home = join(ws, '.tiller');
    mkdirSync(home);
    const config = { home, skillsDir: join(home, 'skills'), sandboxWritableRoots: [], sandboxNetworkAccess: false };
    return { ws, outside, config };
  };
  // /tmp holds the test dirs: left out of the roots so "outside" is outside.
  const write: SandboxPolicy = {
    type: 'workspaceWrite',
    writableRoots: [],
    networkAccess: false,
    excludeTmpdirEnvVar: true,
    excludeSlashTmp: true,
  };

  it('applies inside the writable roots unasked, asks outside them, and refuses outside under never', () => {
    const { ws, outside, config } = setup();
    const base = { cwd: ws, sandboxPolicy: write, config };
    expect(assessPatch([join(ws, 'a/b.txt')], { ...base, approvalPolicy: 'on-request' })).toEqual({ type: 'apply' });
    expect(assessPatch([join(outside, 'x')], { ...base, approvalPolicy: 'on-request' })).toMatchObject({ type: 'ask' });
    expect(assessPatch([join(outside, 'x')], { ...base, approvalPolicy: 'never' })).toEqual({
      type: 'refuse',
      message: 'patch rejected: writing outside of the project; rejected by user approval settings',
    });
    expect(assessPatch([join(ws, 'a.txt')], { ...base, approvalPolicy: 'untrusted' })).toMatchObject({ type: 'ask' });
    expect(
      assessPatch([join(outside, 'x')], { ...base, approvalPolicy: 'on-request', sessionPaths: new Set([join(outside, 'x')]) }),
    ).toEqual({ type: 'apply' });
  });

  it('asks under read-only, applies anywhere under danger-full-access', () => {
    const { ws, outside, config } = setup();
    expect(
      assessPatch([join(ws, 'a')], { cwd: ws, sandboxPolicy: { type: 'readOnly' }, approvalPolicy: 'on-request', config }),
    ).toMatchObject({ type: 'ask' });
    expect(
      assessPatch([join(outside, 'a')], { cwd: ws, sandboxPolicy: { type: 'dangerFullAccess' }, approvalPolicy: 'never', config }),
    ).toEqual({ type: 'apply' });
  });

  it("refuses Tiller's home, .git, and the gitdir a .git pointer names, even with full access, and through a symlinked parent", () => {
    const { ws, config } = setup();
    mkdirSync(join(ws, 'real-git'));
    writeFileSync(join(ws, '.git'), 'gitdir: real-git\n');
    const full = { cwd: ws, sandboxPolicy: { type: 'dangerFullAccess' } as SandboxPolicy, approvalPolicy: 'never' as const, config };
    expect(assessPatch([join(ws, '.tiller/config.toml')], full)).toMatchObject({
      type: 'refuse',
      message: expect.stringContaining("Tiller's home"),
    });
    expect(assessPatch([join(ws, 'real-git/hooks/pre-commit')], full)).toMatchObject({
      type: 'refuse',
      message: expect.stringContaining('a git directory'),
    });
    expect(assessPatch([join(ws, 'sub/.git/config')], full)).toMatchObject({ type: 'refuse' });
    symlinkSync(join(ws, '.tiller'), join(ws, 'innocent'));
    expect(assessPatch([join(ws, 'innocent/hooks.toml')], full)).toMatchObject({
      type: 'refuse',
      message: expect.stringContaining("Tiller's home"),
    });
  });
});
