/**
 * Reads a shell command line into plain data with tree-sitter-bash (the grammar Codex uses), so
 * approvals judge the words bash will run rather than the text. Only what reduces to literal words
 * comes out as commands; anything else (substitutions, expansions, control flow, subshells,
 * background jobs, syntax errors) is `unknown` with a reason. No policy here: see approval.ts.
 *
 * The parser is WebAssembly, loaded on the first parse (never at start-up): from beside this
 * module when bundled (scripts/build.mjs copies the .wasm files into dist/), else from node_modules.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Node, Parser } from 'web-tree-sitter';

/** How two neighbouring commands are joined; `\n` is a plain line break between statements. */
export type Connector = '&&' | '||' | ';' | '|' | '|&' | '\n';

/**
 * `fd` duplicates or closes a descriptor (`2>&1`, `>&2`, `2>&-`); `discard` is /dev/null either
 * way; `read` is `< file`; `write` is every other file redirect; `heredoc` and `herestring` feed
 * literal text to stdin (a heredoc with expansions in its body makes the script unknown).
 */
export type RedirectKind = 'fd' | 'discard' | 'read' | 'write' | 'heredoc' | 'herestring';

export interface Redirect {
  kind: RedirectKind;
  operator: string;
  /** The file or descriptor as bash sees it; null for heredocs and closed descriptors. */
  target: string | null;
}

export interface SimpleCommand {
  /** Words with quotes removed and escapes resolved; argv[0] is the program. */
  argv: string[];
  /**
   * Positions in argv of words bash still rewrites, kept here as written: file-name patterns
   * (unquoted `*`, `?`, `[`) and tilde prefixes (`~`, `a=~/x`). Globs are allowed rather than
   * refused because read-only commands take them all the time; the policy decides what they may be.
   */
  expands: number[];
  /** Names of the `NAME=value` assignments before the program. */
  envAssignments: string[];
  redirects: Redirect[];
}

export type ParsedScript = { kind: 'commands'; commands: SimpleCommand[]; connectors: Connector[] } | { kind: 'unknown'; reason: string };

/** Reached syntax whose effect cannot be read as literal words. */
class Unclassifiable extends Error {}

const REASONS: Record<string, string> = {
  simple_expansion: 'variable expansion',
  expansion: 'parameter expansion',
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  arithmetic_expansion: 'arithmetic expansion',
  brace_expression: 'brace expansion',
  subshell: 'subshell',
  compound_statement: '{ } group',
  function_definition: 'function definition',
  if_statement: 'if statement',
  for_statement: 'for loop',
  c_style_for_statement: 'for loop',
  while_statement: 'while loop',
  case_statement: 'case statement',
  negated_command: 'negated command',
  test_command: 'test expression',
  declaration_command: 'declaration',
  unset_command: 'unset',
  variable_assignment: 'variable assignment',
};

function unclassifiable(node: Node): Unclassifiable {
  return new Unclassifiable(REASONS[node.type] ?? `unsupported syntax: ${node.type}`);
}

/** A word being assembled: its text, and the same text with every quoted character masked. */
interface Piece {
  text: string;
  shape: string;
}
const QUOTED = '\0';

function quoted(text: string): Piece {
  return { text, shape: QUOTED.repeat(text.length) };
}

/** An unquoted word: a backslash quotes the next character, backslash-newline joins lines. */
function unquotedWord(raw: string): Piece {
  let text = '';
  let shape = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c !== '\\' || i + 1 === raw.length) {
      text += c;
      shape += c;
      continue;
    }
    const next = raw[++i]!;
    if (next === '\n') continue;
    text += next;
    shape += QUOTED;
  }
  return { text, shape };
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline. */
function doubleQuoted(body: string): string {
  return body.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function codePoint(value: number): string {
  if (value > 0x10ffff) throw new Unclassifiable("unsupported $'…' escape");
  return String.fromCodePoint(value);
}

/** `$'…'` as bash decodes it; a NUL ends the word there, as it does for bash. */
function ansiC(body: string): string {
  const decoded = body.replace(
    /\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c([\s\S])|([\s\S]))/g,
    (whole, oct?: string, hex?: string, u?: string, bigU?: string, ctrl?: string, other?: string) => {
      if (oct !== undefined) return codePoint(parseInt(oct, 8) & 0xff);
      const unicode = hex ?? u ?? bigU;
      if (unicode !== undefined) return codePoint(parseInt(unicode, 16));
      if (ctrl !== undefined) return codePoint(ctrl.charCodeAt(0) & 0x1f);
      return ANSI_C_ESCAPES[other!] ?? whole;
    },
  );
  const nul = decoded.indexOf('\0');
  return nul === -1 ? decoded : decoded.slice(0, nul);
}

function pieceOf(node: Node): Piece {
  switch (node.type) {
    case 'word':
      return unquotedWord(node.text);
    case 'number':
      return { text: node.text, shape: node.text };
    case 'raw_string':
      return quoted(node.text.slice(1, -1));
    case 'ansi_c_string':
      return quoted(ansiC(node.text.slice(2, -1)));
    case 'string':
      for (const child of node.children) {
        if (child === null || child.type === '"' || child.type === 'string_content') continue;
        throw child.isNamed ? unclassifiable(child) : new Unclassifiable('expansion inside double quotes');
      }
      return quoted(doubleQuoted(node.text.slice(1, -1)));
    case 'concatenation': {
      const parts = node.children.map((child) => {
        if (child === null || !child.isNamed) throw new Unclassifiable('unsupported word');
        return pieceOf(child);
      });
      return { text: parts.map((p) => p.text).join(''), shape: parts.map((p) => p.shape).join('') };
    }
    default:
      throw unclassifiable(node);
  }
}

/** Brace expansion (`{a,b}`, `{1..3}` unquoted) turns one word into several. */
const BRACE_EXPANSION = /\{[^{}]*(,|\.\.)[^{}]*\}/;
const GLOB = /[*?[]/;
const TILDE = /(^|[=:])~/;

function wordOf(node: Node): { text: string; expands: boolean } {
  const { text, shape } = pieceOf(node);
  if (BRACE_EXPANSION.test(shape)) throw new Unclassifiable('brace expansion');
  return { text, expands: GLOB.test(shape) || TILDE.test(shape) };
}

function childrenOf(node: Node): { child: Node; field: string | null }[] {
  const out: { child: Node; field: string | null }[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child !== null) out.push({ child, field: node.fieldNameForChild(i) });
  }
  return out;
}

function assignment(node: Node, cmd: SimpleCommand): void {
  const name = node.childForFieldName('name');
  if (name === null || name.type !== 'variable_name') throw unclassifiable(node);
  const value = node.childForFieldName('value');
  // The value is not kept, but it must be literal: `X=$(rm y) ls` runs rm.
  if (value !== null) wordOf(value);
  cmd.envAssignments.push(name.text);
}

/** Words after a redirect's target belong to the command (`ls > f -la` runs `ls -la`). */
function redirect(node: Node, addWord: (word: Node) => void): Redirect {
  const parts = childrenOf(node);
  if (node.type === 'heredoc_redirect') return heredoc(parts);
  if (node.type === 'herestring_redirect') {
    const word = parts.find((p) => p.child.isNamed)?.child;
    if (parts.length !== 2 || word === undefined) throw new Unclassifiable('unsupported here-string');
    return { kind: 'herestring', operator: '<<<', target: wordOf(word).text };
  }
  if (node.type !== 'file_redirect') throw unclassifiable(node);
  const operator = parts.find((p) => !p.child.isNamed)?.child.type;
  if (operator === undefined || parts.some((p) => p.child.isNamed && p.field !== 'destination' && p.field !== 'descriptor'))
    throw new Unclassifiable('unsupported redirection');
  const [first, ...extra] = parts.filter((p) => p.field === 'destination').map((p) => p.child);
  const target = first === undefined ? null : wordOf(first);
  for (const word of extra) addWord(word);
  return { kind: redirectKind(operator, target), operator, target: target?.text ?? null };
}

const FD_TARGET = /^(\d+-?|-)$/;

function redirectKind(operator: string, target: { text: string; expands: boolean } | null): RedirectKind {
  if (operator === '>&-' || operator === '<&-') return 'fd';
  if (target === null) throw new Unclassifiable('redirection without a target');
  if ((operator === '>&' || operator === '<&') && FD_TARGET.test(target.text)) return 'fd';
  if (target.text === '/dev/null' && !target.expands) return 'discard';
  if (operator === '<' || operator === '<&') return 'read';
  if (['>', '>>', '&>', '&>>', '>|', '>&'].includes(operator)) return 'write';
  throw new Unclassifiable(`unsupported redirection: ${operator}`);
}

/** Only the heredoc itself: tree-sitter hangs what follows its marker (`| rm x`, `&& …`) inside it. */
function heredoc(parts: { child: Node }[]): Redirect {
  const operator = parts[0]?.child.type ?? '';
  if (operator !== '<<' && operator !== '<<-') throw new Unclassifiable('unsupported heredoc');
  for (const { child } of parts.slice(1)) {
    if (child.type === 'heredoc_start' || child.type === 'heredoc_end') continue;
    if (child.type !== 'heredoc_body') throw new Unclassifiable('commands or redirections after a heredoc marker');
    // An unquoted marker leaves `$x` and `$(…)` in the body live.
    const expansion = child.namedChildren.find((c) => c !== null && c.type !== 'heredoc_content');
    if (expansion) throw unclassifiable(expansion);
  }
  return { kind: 'heredoc', operator, target: null };
}

class Walker {
  readonly commands: SimpleCommand[] = [];
  readonly connectors: Connector[] = [];
  /** The operator seen since the last command; none means a line break. */
  private pending: Connector | null = null;

  statement(node: Node): void {
    switch (node.type) {
      case 'program':
      case 'list':
      case 'pipeline':
        for (const child of node.children) {
          if (child === null || child.type === 'comment') continue;
          if (child.isNamed) this.statement(child);
          else if (child.type === '&') throw new Unclassifiable('background job');
          else if (['&&', '||', ';', '|', '|&'].includes(child.type)) this.pending = child.type as Connector;
          else throw new Unclassifiable(`unsupported operator: ${child.type}`);
        }
        return;
      case 'command':
        return this.command(node, []);
      case 'redirected_statement': {
        const parts = childrenOf(node);
        const body = parts.find((p) => p.field === 'body')?.child;
        if (body === undefined) throw new Unclassifiable('redirection without a command');
        if (body.type !== 'command') throw unclassifiable(body);
        const rest = parts.filter((p) => p.field !== 'body');
        if (rest.some((p) => p.field !== 'redirect')) throw new Unclassifiable('unsupported redirection');
        return this.command(
          body,
          rest.map((p) => p.child),
        );
      }
      default:
        throw unclassifiable(node);
    }
  }

  /** `trailing`: the redirects tree-sitter keeps outside the command node, in source order. */
  private command(node: Node, trailing: Node[]): void {
    const cmd: SimpleCommand = { argv: [], expands: [], envAssignments: [], redirects: [] };
    const addWord = (word: Node): void => {
      const { text, expands } = wordOf(word);
      if (expands) cmd.expands.push(cmd.argv.length);
      cmd.argv.push(text);
    };
    for (const { child, field } of [...childrenOf(node), ...trailing.map((child) => ({ child, field: 'redirect' }))]) {
      if (child.type === 'variable_assignment' && cmd.argv.length === 0) assignment(child, cmd);
      else if (child.type === 'command_name' && child.namedChildCount === 1) addWord(child.namedChild(0)!);
      else if (field === 'redirect') cmd.redirects.push(redirect(child, addWord));
      else if (field === 'argument') addWord(child);
      else throw unclassifiable(child);
    }
    if (cmd.argv.length === 0) throw new Unclassifiable('no command name');
    if (this.commands.length > 0) this.connectors.push(this.pending ?? '\n');
    this.pending = null;
    this.commands.push(cmd);
  }
}

/** The .wasm beside this module (the bundle in dist/), else the package's own copy. */
function wasmPath(file: string, packagePath: string): string {
  const beside = fileURLToPath(new URL(file, import.meta.url));
  return existsSync(beside) ? beside : createRequire(import.meta.url).resolve(packagePath);
}

let parser: Promise<Parser> | null = null;
let loaded = false;

async function loadParser(): Promise<Parser> {
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init({ locateFile: () => wasmPath('tree-sitter.wasm', 'web-tree-sitter/tree-sitter.wasm') });
  const bash = await Language.load(wasmPath('tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'));
  const instance = new Parser();
  instance.setLanguage(bash);
  loaded = true;
  return instance;
}

/** Whether the WebAssembly parser has been loaded (it is only on the first parse). */
export function isShellParserLoaded(): boolean {
  return loaded;
}

export async function parseShellCommand(script: string): Promise<ParsedScript> {
  let instance: Parser;
  try {
    instance = await (parser ??= loadParser());
  } catch (error) {
    parser = null; // try again next time; until then nothing can be judged, so everything asks
    return { kind: 'unknown', reason: `shell parser unavailable: ${(error as Error).message}` };
  }
  const tree = instance.parse(script);
  if (tree === null) return { kind: 'unknown', reason: 'parse failed' };
  try {
    if (tree.rootNode.hasError) return { kind: 'unknown', reason: 'syntax error' };
    const walker = new Walker();
    walker.statement(tree.rootNode);
    return { kind: 'commands', commands: walker.commands, connectors: walker.connectors };
  } catch (error) {
    if (error instanceof Unclassifiable) return { kind: 'unknown', reason: error.message };
    throw error;
  } finally {
    tree.delete();
  }
}
