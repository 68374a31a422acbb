import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../../../src/tui/main.js';

describe('parseTuiArgs', () => {
  it('reads --model and --base-url in both spellings', () => {
    expect(parseTuiArgs([])).toEqual({ overrides: {} });
    expect(parseTuiArgs(['--model', 'gpt-x', '--base-url=http://127.0.0.1:1/v1'])).toEqual({
      overrides: { model: 'gpt-x', baseUrl: 'http://127.0.0.1:1/v1' },
    });
    expect(parseTuiArgs(['-m', 'small'])).toEqual({ overrides: { model: 'small' } });
  });

  it('explains unknown options and missing values', () => {
    expect(parseTuiArgs(['--frob'])).toBe("unknown option '--frob'");
    expect(parseTuiArgs(['--model'])).toBe("option '--model' needs a value");
    expect(parseTuiArgs(['--constructor'])).toBe("unknown option '--constructor'");
    expect(parseTuiArgs(['--toString=1'])).toBe("unknown option '--toString'");
  });

  it('reads -a/--ask-for-approval and -s/--sandbox in every spelling', () => {
    expect(parseTuiArgs(['-a', 'untrusted', '-s', 'read-only'])).toEqual({
      overrides: { approvalPolicy: 'untrusted', sandboxMode: 'read-only' },
    });
    expect(parseTuiArgs(['--ask-for-approval=never', '--sandbox', 'danger-full-access'])).toEqual({
      overrides: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' },
    });
    expect(parseTuiArgs(['--ask-for-approval', 'on-request', '--sandbox=workspace-write'])).toEqual({
      overrides: { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' },
    });
  });

  it('names the allowed values when a policy or a sandbox mode is not one of them', () => {
    expect(parseTuiArgs(['-a', 'always'])).toBe("option '-a' takes one of untrusted, on-request, never (not 'always')");
    expect(parseTuiArgs(['--sandbox=none'])).toBe(
      "option '--sandbox' takes one of read-only, workspace-write, danger-full-access (not 'none')",
    );
    expect(parseTuiArgs(['-s'])).toBe("option '-s' needs a value");
  });

  it('--full-auto and --dangerously-bypass-approvals-and-sandbox set both, as Codex; a later flag wins', () => {
    expect(parseTuiArgs(['--full-auto'])).toEqual({ overrides: { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' } });
    expect(parseTuiArgs(['--dangerously-bypass-approvals-and-sandbox'])).toEqual({
      overrides: { approvalPolicy: 'never', sandboxMode: 'danger-full-access' },
    });
    expect(parseTuiArgs(['--full-auto', '-a', 'untrusted'])).toEqual({
      overrides: { approvalPolicy: 'untrusted', sandboxMode: 'workspace-write' },
    });
    expect(parseTuiArgs(['--full-auto=yes'])).toBe("option '--full-auto' takes no value");
    expect(parseTuiArgs(['--add-dir', '/data', '--add-dir=rel'])).toEqual({
      overrides: { addDirs: ['/data', join(process.cwd(), 'rel')] },
    });
  });
});

describe('parseTuiArgs: the prompt and the flags shared with exec', () => {
  it('a first word that is not an option is the prompt; words join; `--` ends the options', () => {
    expect(parseTuiArgs(['fix the build'])).toEqual({ overrides: {}, prompt: 'fix the build' });
    expect(parseTuiArgs(['-m', 'gpt-x', 'fix', 'it'])).toEqual({ overrides: { model: 'gpt-x' }, prompt: 'fix it' });
    expect(parseTuiArgs(['explain', '--full-auto'])).toEqual({
      overrides: { approvalPolicy: 'on-request', sandboxMode: 'workspace-write' },
      prompt: 'explain',
    });
    expect(parseTuiArgs(['--', '--model', 'is a word here'])).toEqual({ overrides: {}, prompt: '--model is a word here' });
    expect(parseTuiArgs(['constructor'])).toEqual({ overrides: {}, prompt: 'constructor' });
  });

  it('-i/--image: repeatable and comma-separated, kept as written (resolved before -C by cli.ts)', () => {
    expect(parseTuiArgs(['-i', 'a.png', '--image', 'b.png,c.png', '--image=d.png', 'what is this'])).toEqual({
      overrides: {},
      images: ['a.png', 'b.png', 'c.png', 'd.png'],
      prompt: 'what is this',
    });
    expect(parseTuiArgs(['-i', 'shot.png'])).toEqual({ overrides: {}, images: ['shot.png'] });
    expect(parseTuiArgs(['--image'])).toBe("option '--image' needs a value");
  });

  it('-C/--cd DIR, the last one winning', () => {
    expect(parseTuiArgs(['-C', '/repo'])).toEqual({ overrides: {}, cd: '/repo' });
    expect(parseTuiArgs(['--cd=a', '--cd', 'b', 'hi'])).toEqual({ overrides: {}, cd: 'b', prompt: 'hi' });
    expect(parseTuiArgs(['-C'])).toBe("option '-C' needs a value");
  });

  it('-p/--profile NAME becomes overrides.profile', () => {
    expect(parseTuiArgs(['-p', 'work'])).toEqual({ overrides: { profile: 'work' } });
    expect(parseTuiArgs(['--profile=local', '-m', 'small'])).toEqual({ overrides: { profile: 'local', model: 'small' } });
    expect(parseTuiArgs(['--profile'])).toBe("option '--profile' needs a value");
  });

  it('--help and --version anywhere before `--`; exec-only flags are unknown here', () => {
    expect(parseTuiArgs(['-m', 'x', '--help'])).toEqual({ overrides: {}, help: true });
    expect(parseTuiArgs(['--bogus', '-h'])).toEqual({ overrides: {}, help: true });
    expect(parseTuiArgs(['-V'])).toEqual({ overrides: {}, version: true });
    expect(parseTuiArgs(['--', '--help'])).toEqual({ overrides: {}, prompt: '--help' });
    expect(parseTuiArgs(['--json'])).toBe("unknown option '--json'");
  });

  it('short options take their value attached too; an unknown one in a group is named', () => {
    expect(parseTuiArgs(['-mgpt-x', '-sread-only'])).toEqual({ overrides: { model: 'gpt-x', sandboxMode: 'read-only' } });
    expect(parseTuiArgs(['-xm', 'v'])).toBe("unknown option '-x'");
    expect(parseTuiArgs(['--model='])).toBe("option '--model' needs a value");
  });
  it('-c/--continue opens the latest session of the directory; words are still the prompt', () => {
    expect(parseTuiArgs(['-c'])).toEqual({ overrides: {}, session: { kind: 'latest' } });
    expect(parseTuiArgs(['--continue', '-m', 'x', 'go', 'on'])).toEqual({
      overrides: { model: 'x' },
      session: { kind: 'latest' },
      prompt: 'go on',
    });
    expect(parseTuiArgs(['--continue=1'])).toBe("option '--continue' takes no value");
    expect(parseTuiArgs(['--last'])).toBe("unknown option '--last'");
  });

  it('tiller resume: no id is the picker, the first word the id and the rest the prompt; --last takes every word as the prompt', () => {
    const resume = (argv: string[]) => parseTuiArgs(argv, { resume: true });
    expect(resume([])).toEqual({ overrides: {}, session: { kind: 'pick' } });
    expect(resume(['0199a213-81c0-7800-8aa1-bbab2a035a53'])).toEqual({
      overrides: {},
      session: { kind: 'resume', threadId: '0199a213-81c0-7800-8aa1-bbab2a035a53' },
    });
    expect(resume(['abc', 'keep', 'going', '-m', 'x'])).toEqual({
      overrides: { model: 'x' },
      session: { kind: 'resume', threadId: 'abc' },
      prompt: 'keep going',
    });
    expect(resume(['--last'])).toEqual({ overrides: {}, session: { kind: 'latest' } });
    expect(resume(['--last', 'keep', 'going'])).toEqual({ overrides: {}, session: { kind: 'latest' }, prompt: 'keep going' });
    expect(resume(['-c'])).toEqual({ overrides: {}, session: { kind: 'latest' } });
    expect(resume(['--last=yes'])).toBe("option '--last' takes no value");
    expect(resume(['--json'])).toBe("unknown option '--json'");
  });
});
