import { describe, expect, it } from 'vitest';
import type { ApprovalPolicy } from '../../src/protocol/api.js';
import {
  approvalRuleFor,
  commandNeedsApproval,
  isKnownSafeCommand,
  isSessionApproved,
  type SessionApprovals,
} from '../../src/runtime/commands/approval.js';
import { isShellParserLoaded, parseShellCommand } from '../../src/runtime/commands/parse.js';

const ask = (policy: ApprovalPolicy, command: string, sessionApprovals: SessionApprovals = [], sandboxed = false): Promise<boolean> =>
  commandNeedsApproval({ policy, sandboxed, sessionApprovals, command });

// First in the file: nothing above has parsed yet.
describe('the parser loads lazily', () => {
  it('importing the policy does not load it, a policy that ignores the command does not either, the first judgement does', async () => {
    expect(isShellParserLoaded()).toBe(false);
    expect(await ask('never', 'rm -rf x')).toBe(false);
    expect(await ask('on-request', 'rm -rf x', [], true)).toBe(false);
    expect(isShellParserLoaded()).toBe(false);
    expect(await ask('untrusted', 'ls')).toBe(false);
    expect(isShellParserLoaded()).toBe(true);
  });
});

/** `untrusted` runs these without asking: every command is read-only. */
const RUNS: string[] = [
  'ls -la',
  'cat README.md',
  'ls && pwd',
  'ls || echo none',
  'ls; pwd',
  'ls | wc -l',
  'ls |& cat',
  'git status && git diff HEAD~1 | head -n 20',
  "cat 'a b.txt'",
  'cat "a b.txt"',
  'cat a\\ b.txt',
  "echo $'tab\\there'",
  'echo "quoted; rm -rf x"',
  "echo 'a && b > f'",
  'grep -rn "TODO" src',
  'rg -n foo src',
  "find . -name '*.ts' -type f",
  'find src -maxdepth 2 -newer package.json',
  'sed -n 1,20p file.txt',
  'sort -u names.txt',
  'uniq -c counts.txt',
  'file README.md',
  'file -m magic README.md',
  'ls 2>&1',
  'ls > /dev/null',
  'ls 2>/dev/null | wc -l',
  'ls\npwd',
  'ls # list files',
  "cat <<'EOF'\nhello $USER $(whoami)\nEOF\n",
  'cat <<EOF\nplain text\nEOF\n',
  'cat <<< "text"',
  'cd src && ls',
  'git log --oneline -n 5',
  'git show HEAD:README.md',
  'git branch -a',
  'git --no-pager diff',
  'git rev-parse --show-toplevel',
  'git grep -n foo',
  'git diff --no-ext-diff',
  'ls src/*.ts',
  'grep -rn --include=*.ts foo .',
  'wc -l ~/notes.txt',
  'date +%Y',
  'env',
  'diff a.txt b.txt',
];

/** `untrusted` asks before these. */
const ASKS: string[] = [
  'rm -rf x',
  'ls; rm -rf x',
  'ls && rm -rf x',
  'ls || rm -rf x',
  'ls | xargs rm',
  'ls\nrm -rf x',
  'ls &',
  'ls & rm x',
  '(ls)',
  '{ ls; }',
  'f() { ls; }; f',
  'if true; then ls; fi',
  'for f in a b; do cat f; done',
  'FOO=1 ls',
  'PATH=. ls',
  'sudo ls',
  'xargs cat',
  'env rm x',
  'nohup ls',
  'timeout 5 ls',
  "bash -c 'ls'",
  'sh -c ls',
  'find . -exec rm {} \\;',
  'find . -delete',
  'find . -fprint out',
  'git -c core.pager=sh log',
  'git -C /tmp status',
  'git --git-dir=/tmp/x status',
  'git diff --output=/tmp/x',
  'git log --out=f',
  'git grep -O less foo',
  'git branch -D main',
  'git push',
  'git checkout .',
  'rg --pre sh foo',
  'rg --pre=sh foo',
  'rg -z foo',
  'sed -i s/a/b/ f',
  'sed -n 1p -i f',
  "sed -n 'w out' f",
  'sort -o out in',
  'sort --output=out in',
  'sort --compress-program=sh in',
  'file -C -m m',
  'file --compile -m m',
  'uniq in out',
  'date -s 2020-01-01',
  'tree -o out',
  'ls > f',
  'ls >> f',
  'ls &> f',
  'ls 2> err.log',
  'echo hi | tee f',
  'cat < /dev/tcp/example.com/80',
  'echo $(rm x)',
  'echo `rm x`',
  'cat <(ls)',
  '$CMD',
  '"$HOME"/bin/tool',
  'echo $HOME',
  'echo ${HOME}',
  'echo $((1+2))',
  'echo {a,b}',
  'cat <<EOF\n$(rm x)\nEOF\n',
  'cat <<EOF | sh\nrm x\nEOF\n',
  'ls *',
  'sort -*',
  'find * -name x',
  '/bin/rm x',
  './ls',
  '! ls',
  'X=1',
  'export PATH=.',
  'ls &&',
  'echo "unterminated',
  '',
];

describe('untrusted: known-safe commands run, everything else asks', () => {
  it('has a corpus of at least 60 commands', () => {
    expect(RUNS.length + ASKS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(RUNS)('runs %j', async (command) => {
    expect(await ask('untrusted', command)).toBe(false);
  });

  it.each(ASKS)('asks before %j', async (command) => {
    expect(await ask('untrusted', command)).toBe(true);
    expect(isKnownSafeCommand(await parseShellCommand(command))).toBe(false);
  });
});

describe('the other policies', () => {
  it('never asks under `never`, not even for what the parser cannot read', async () => {
    for (const c of ['rm -rf /tmp/x', 'echo $(rm x)', 'ls &&']) expect(await ask('never', c), c).toBe(false);
  });

  it('on-request asks before every command without a sandbox, read-only or not', async () => {
    for (const c of ['ls', 'git status', 'rm -rf x', 'echo $(rm x)']) expect(await ask('on-request', c), c).toBe(true);
  });

  it('on-request runs without asking when a sandbox is in force', async () => {
    for (const c of ['ls', 'rm -rf x', 'echo $(rm x)']) expect(await ask('on-request', c, [], true), c).toBe(false);
  });

  it('untrusted still asks in a sandbox', async () => {
    expect(await ask('untrusted', 'rm -rf x', [], true)).toBe(true);
    expect(await ask('untrusted', 'ls', [], true)).toBe(false);
  });
});

describe('approvals for the session', () => {
  const ruleOf = async (command: string): Promise<string[] | null> => approvalRuleFor(await parseShellCommand(command));

  it('store the exact argv of one plain command', async () => {
    expect(await ruleOf('git push --dry-run')).toEqual(['git', 'push', '--dry-run']);
    expect(await ruleOf(`git commit -m 'a message'`)).toEqual(['git', 'commit', '-m', 'a message']);
    expect(await ruleOf('npm test 2>&1 > /dev/null')).toEqual(['npm', 'test']);
  });

  it('store nothing for anything else: that acceptance covers one run', async () => {
    for (const c of ['ls && pwd', 'ls | wc', 'ls > f', 'cat < f', 'FOO=1 ls', 'rm *.o', 'cat ~/x', 'echo $(x)', 'cat <<EOF\nx\nEOF\n', ''])
      expect(await ruleOf(c), c).toBeNull();
  });

  it('after accepting `git push --dry-run`, `git push --force || touch X` still asks', async () => {
    const approved = [(await ruleOf('git push --dry-run'))!];
    for (const policy of ['on-request', 'untrusted'] as const) {
      expect(await ask(policy, 'git push --force || touch X', approved)).toBe(true);
      expect(await ask(policy, 'git push --force', approved)).toBe(true);
      expect(await ask(policy, 'git push', approved)).toBe(true);
      expect(await ask(policy, 'git push --dry-run; rm x', approved)).toBe(true);
      expect(await ask(policy, 'git push --dry-run > out', approved)).toBe(true);
      expect(await ask(policy, 'GIT_SSH_COMMAND=sh git push --dry-run', approved)).toBe(true);
      expect(await ask(policy, 'git push --dry-run $(rm x)', approved)).toBe(true);
      // Exact argv: more arguments are another command (accepting `rm -rf build` is not `rm -rf build /`).
      expect(await ask(policy, 'git push --dry-run origin', approved)).toBe(true);
      expect(await ask(policy, 'git push --dry-run', approved)).toBe(false);
      expect(await ask(policy, 'git push "--dry-run" 2>&1', approved)).toBe(false);
    }
  });

  it('never lets `ls; rm -rf x` through in untrusted, whatever was accepted', async () => {
    expect(await ask('untrusted', 'ls; rm -rf x', [['ls'], ['rm']])).toBe(true);
  });

  it('do not match a word bash would still expand', async () => {
    const approved = [(await ruleOf(`rm '*.o'`))!];
    expect(approved[0]).toEqual(['rm', '*.o']);
    expect(isSessionApproved(await parseShellCommand(`rm '*.o'`), approved)).toBe(true);
    expect(isSessionApproved(await parseShellCommand('rm *.o'), approved)).toBe(false);
    expect(isSessionApproved(await parseShellCommand(`rm '*.o' *.a`), approved)).toBe(false);
  });
});
