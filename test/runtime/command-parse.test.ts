import { describe, expect, it } from 'vitest';
import { parseShellCommand, type ParsedScript, type SimpleCommand } from '../../src/runtime/commands/parse.js';

async function commands(script: string): Promise<SimpleCommand[]> {
  const parsed = await parseShellCommand(script);
  if (parsed.kind !== 'commands') throw new Error(`${JSON.stringify(script)} is unknown: ${parsed.reason}`);
  return parsed.commands;
}

async function argvs(script: string): Promise<string[][]> {
  return (await commands(script)).map((c) => c.argv);
}

async function only(script: string): Promise<SimpleCommand> {
  const all = await commands(script);
  expect(all).toHaveLength(1);
  return all[0]!;
}

describe('words', () => {
  it('removes quotes and resolves escapes', async () => {
    expect(await argvs(`cat 'a b' "c d" e\\ f 'it'"'"'s'`)).toEqual([['cat', 'a b', 'c d', 'e f', "it's"]]);
    expect(await argvs(`echo "c\\"d" "back\\\\slash" "a\\nb" "\\$x" \\$y`)).toEqual([['echo', 'c"d', 'back\\slash', 'a\\nb', '$x', '$y']]);
    expect(await argvs('cmd --opt="a b" -n3 2')).toEqual([['cmd', '--opt=a b', '-n3', '2']]);
  });

  it("decodes $'…' as bash does, ending the word at a NUL", async () => {
    expect(await argvs(String.raw`printf $'a\tb\n' $'\x41\101\u00e9\cA' $'\'q\'' $'x\0y'`)).toEqual([
      ['printf', 'a\tb\n', 'AAé\u0001', "'q'", 'x'],
    ]);
  });

  it('joins backslash-newline continuations', async () => {
    expect(await argvs('ls \\\n  -la \\\n  src')).toEqual([['ls', '-la', 'src']]);
  });

  it('marks unquoted globs and tildes, not quoted or escaped ones', async () => {
    const cmd = await only(`ls *.ts '*.md' \\*.js src/[ab]? ~/x "~/y" a=~/z plain`);
    expect(cmd.argv).toEqual(['ls', '*.ts', '*.md', '*.js', 'src/[ab]?', '~/x', '~/y', 'a=~/z', 'plain']);
    expect(cmd.expands).toEqual([1, 4, 5, 7]);
  });

  it('keeps braces that are not brace expansion', async () => {
    expect(await argvs('git show HEAD@{1} {}')).toEqual([['git', 'show', 'HEAD@{1}', '{}']]);
  });
});

describe('composition', () => {
  it('lists every simple command with the connectors between them', async () => {
    const parsed = await parseShellCommand('a && b || c; d | e |& f\ng # note\n');
    expect(parsed).toMatchObject({ kind: 'commands', connectors: ['&&', '||', ';', '|', '|&', '\n'] });
    expect(await argvs('a && b || c; d | e |& f\ng # note\n')).toEqual([['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
  });

  it('skips comments, including between an operator and its command', async () => {
    expect(await argvs('# only a comment')).toEqual([]);
    expect(await argvs('ls && # then\n pwd')).toEqual([['ls'], ['pwd']]);
    expect(await argvs('')).toEqual([]);
  });

  it('keeps a trailing separator out of the connectors', async () => {
    expect(await parseShellCommand('ls;')).toEqual({
      kind: 'commands',
      commands: [expect.objectContaining({ argv: ['ls'] })],
      connectors: [],
    });
  });

  it('names environment assignments before the program', async () => {
    const cmd = await only('FOO=1 BAR="x y" EMPTY= ls FOO=2');
    expect(cmd.envAssignments).toEqual(['FOO', 'BAR', 'EMPTY']);
    expect(cmd.argv).toEqual(['ls', 'FOO=2']);
  });
});

describe('redirections', () => {
  it('tells descriptor duplication, /dev/null, reads and writes apart', async () => {
    const kinds = async (script: string): Promise<string[]> =>
      (await only(script)).redirects.map((r) => `${r.kind} ${r.operator} ${r.target}`);
    expect(await kinds('ls 2>&1 >&2 2>&- > /dev/null 2>/dev/null')).toEqual([
      'fd >& 1',
      'fd >& 2',
      'fd >&- null',
      'discard > /dev/null',
      'discard > /dev/null',
    ]);
    expect(await kinds('ls > out >> log &> both &>> all >| clobber >& file 2> err < in')).toEqual([
      'write > out',
      'write >> log',
      'write &> both',
      'write &>> all',
      'write >| clobber',
      'write >& file',
      'write > err',
      'read < in',
    ]);
  });

  it('notes heredocs and here-strings', async () => {
    expect((await only("cat <<'EOF'\n$HOME `x`\nEOF\n")).redirects).toEqual([{ kind: 'heredoc', operator: '<<', target: null }]);
    expect((await only('cat <<-EOF\n\tplain\n\tEOF\n')).redirects).toEqual([{ kind: 'heredoc', operator: '<<-', target: null }]);
    expect((await only('cat <<< "text"')).redirects).toEqual([{ kind: 'herestring', operator: '<<<', target: 'text' }]);
  });

  it('words after a redirection target are arguments, as bash runs them', async () => {
    expect(await argvs('git push --dry-run 2>&1 --force')).toEqual([['git', 'push', '--dry-run', '--force']]);
    expect(await argvs('ls > f -la')).toEqual([['ls', '-la']]);
    expect(await argvs('>f a ls')).toEqual([['a', 'ls']]);
  });
});

describe('what cannot be read as literal words is unknown', () => {
  const cases: [string, string][] = [
    ['echo $(rm x)', 'command substitution'],
    ['echo `rm x`', 'command substitution'],
    ['cat <(ls)', 'process substitution'],
    ['ls 2> >(tee log)', 'process substitution'],
    ['$CMD -x', 'variable expansion'],
    ['echo "$HOME"', 'variable expansion'],
    ['echo ${HOME}', 'parameter expansion'],
    ['echo $((1 + 2))', 'arithmetic expansion'],
    ['echo {a,b}', 'brace expansion'],
    ['echo {1..3}', 'brace expansion'],
    ['(cd /tmp && ls)', 'subshell'],
    ['{ ls; pwd; }', '{ } group'],
    ['f() { ls; }', 'function definition'],
    ['if true; then ls; fi', 'if statement'],
    ['for f in a b; do cat f; done', 'for loop'],
    ['while true; do ls; done', 'while loop'],
    ['ls &', 'background job'],
    ['ls & rm x', 'background job'],
    ['! ls', 'negated command'],
    ['X=1', 'variable assignment'],
    ['export PATH=.', 'declaration'],
    ['X=$(rm y) ls', 'command substitution'],
    ['[ -f x ]', 'test expression'],
    ['cat <<EOF\n$(rm x)\nEOF\n', 'command substitution'],
    ['cat <<EOF | sh\nrm x\nEOF\n', 'commands or redirections after a heredoc marker'],
    ['cat <<EOF && rm x\nhi\nEOF\n', 'commands or redirections after a heredoc marker'],
    ['cat <<EOF > out\nhi\nEOF\n', 'commands or redirections after a heredoc marker'],
    ['> f', 'redirection without a command'],
    ['ls &&', 'syntax error'],
    ['echo "unterminated', 'syntax error'],
    ['cat <<EOF; rm x\nhi\nEOF\n', 'syntax error'],
  ];
  it.each(cases)('%j: %s', async (script, reason) => {
    expect(await parseShellCommand(script)).toEqual({ kind: 'unknown', reason } satisfies ParsedScript);
  });
});
