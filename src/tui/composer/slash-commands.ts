/**
 * The built-in slash commands (docs/codex-parity.md#slash-commands): names, descriptions, whether each may run while a
 * task is in progress and whether it takes inline arguments; parsing of `/name rest`; the popup filter.
 * Only commands Tiller implements are listed.
 */

export type SlashCommandName =
  | 'new'
  | 'resume'
  | 'fork'
  | 'undo'
  | 'redo'
  | 'compact'
  | 'review'
  | 'findings'
  | 'init'
  | 'model'
  | 'approvals'
  | 'vim'
  | 'diff'
  | 'status'
  | 'inspect'
  | 'clear'
  | 'skills'
  | 'mcp'
  | 'help'
  | 'feedback'
  | 'ps'
  | 'stop'
  | 'rename'
  | 'export'
  | 'quit'
  | 'exit';

export interface SlashCommand {
  name: SlashCommandName;
  description: string;
  /** False → `'/{name}' is disabled while a task is in progress.` when dispatched during a turn. */
  availableDuringTask: boolean;
}

/** Only the commands in ARG_COMMANDS take inline arguments: `/new foo` is submitted as text. */
const command = (name: SlashCommandName, description: string, availableDuringTask: boolean): SlashCommand => ({
  name,
  description,
  availableDuringTask,
});

/**
 * In popup presentation order (the order shown for a bare `/`). Commands that replace or rewrite the
 * conversation cannot run while a task is in progress.
 */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  command('new', 'start a new chat during a conversation', false),
  command('resume', 'resume a saved chat', false),
  command('fork', 'fork the current chat into a new session', false),
  command('compact', 'summarize the conversation to free up context', false),
  command('init', 'create an AGENTS.md file with instructions for Tiller', false),
  command('model', 'choose the model and its reasoning effort', true),
  command('approvals', 'choose when commands ask and where they may write', true),
  command('vim', 'toggle Vim mode in the composer', true),
  command('diff', 'show the git diff (including untracked files)', true),
  command('undo', 'step back one turn: the conversation, the files it changed, or both', false),
  command('redo', 'put back what the last /undo or rewind took back', false),
  command('review', 'review uncommitted changes, a branch, a commit or with your instructions', false),
  command('findings', 'pick a finding of the latest review: f to fix it, y to copy it', true),
  command('status', 'show the session configuration and token usage', true),
  command('inspect', 'show what the next request carries for the draft (type it anywhere in it)', true),
  command('clear', 'clear the screen and start a new chat', false),
  command('skills', 'list the skills Tiller can use', true),
  command('mcp', 'list the MCP servers and their tools', true),
  command('help', 'list the commands and keys', true),
  command('feedback', 'write a diagnostic report (no message text) to attach to a bug report', true),
  command('ps', 'list the background commands', true),
  command('stop', 'stop the background commands (/stop ID: one of them)', true),
  command('rename', 'name this session (/rename NAME; tiller resume NAME)', true),
  command('export', 'save the transcript as Markdown or JSON (/export PATH --json; no path: the clipboard)', true),
  command('quit', 'exit Tiller', true),
  command('exit', 'exit Tiller', true),
];

/** Commands that read the words after their name (`/rename NAME`); the rest take none. */
const ARG_COMMANDS: ReadonlySet<string> = new Set<SlashCommandName>(['stop', 'rename', 'export']);

export function takesArgs(name: string): boolean {
  return ARG_COMMANDS.has(name);
}

const BY_NAME = new Map<string, SlashCommand>(SLASH_COMMANDS.map((c) => [c.name, c]));

export function findCommand(name: string): SlashCommand | undefined {
  return BY_NAME.get(name);
}

export function isKnownCommand(name: string): boolean {
  return BY_NAME.has(name);
}

/**
 * Commands that act on the draft around them (/inspect): the popup offers them after a `/` anywhere a
 * word starts, and running one takes out only its own `/name`; the rest of the draft stays.
 */
const DRAFT_COMMANDS: ReadonlySet<string> = new Set<SlashCommandName>(['inspect']);

export function isDraftCommand(name: string): boolean {
  return DRAFT_COMMANDS.has(name);
}

/** `/name` typed inside a draft: a prefix of a draft command's name. */
export function isDraftCommandPrefix(name: string): boolean {
  return [...DRAFT_COMMANDS].some((c) => c.startsWith(name.toLowerCase()));
}

/** The `/` popup shows while the typed name is a prefix of some command (a bare `/` included). */
export function isCommandPrefix(name: string): boolean {
  return SLASH_COMMANDS.some((c) => c.name.startsWith(name));
}

export interface ParsedSlash {
  /** The command name without the slash (not necessarily a known command). */
  name: string;
  /** Everything after the name and the whitespace that follows it, later lines included. */
  rest: string;
  /** Where `rest` starts in the input: UTF-16 index and UTF-8 byte offset (for rebasing text elements). */
  restIndex: number;
  restByteOffset: number;
}

const WHITESPACE = /\s/u;

/**
 * `/name rest` → {name, rest}. Not a command (null): text not starting with `/` (so a leading space makes
 * it plain text), a bare `/`, or a name containing `/` (e.g. `/usr/bin/foo` is a path, not a command).
 */
export function parseSlash(text: string): ParsedSlash | null {
  if (!text.startsWith('/')) return null;
  let nameEnd = text.length;
  for (let i = 1; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (WHITESPACE.test(ch)) {
      nameEnd = i;
      break;
    }
    i += ch.length;
  }
  const name = text.slice(1, nameEnd);
  if (name === '' || name.includes('/')) return null;
  const afterName = text.slice(nameEnd);
  const rest = afterName.trimStart();
  const restIndex = nameEnd + (afterName.length - rest.length);
  return { name, rest, restIndex, restByteOffset: Buffer.byteLength(text.slice(0, restIndex)) };
}

export interface CommandMatch {
  command: SlashCommand;
  /** Indices into `command.name` that matched the filter (for highlighting); empty for a bare `/`. */
  indices: number[];
}

/**
 * Where `query` (lower case) occurs in `name`: a case-insensitive prefix, else its first occurrence
 * inside; the matched indices, or null when it does not occur. For popup highlighting (`/`, `$`).
 */
export function substringMatch(name: string, query: string): number[] | null {
  if (query === '') return [];
  const at = name.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return null;
  return Array.from({ length: query.length }, (_, i) => at + i);
}

/**
 * Commands matching the text typed after `/`. Empty filter → all in presentation order. Otherwise an exact
 * name first, then prefix matches, then names that contain the filter, each in presentation order. No
 * subsequence matching: `/stt` matches nothing (the popup says so) rather than `/status`.
 */
export function filterCommands(filter: string): CommandMatch[] {
  const query = filter.toLowerCase();
  if (query === '') return SLASH_COMMANDS.map((command) => ({ command, indices: [] }));
  const matched = SLASH_COMMANDS.flatMap((command) => {
    const indices = substringMatch(command.name, query);
    return indices === null ? [] : [{ command, indices }];
  });
  const rank = (m: CommandMatch): number => (m.command.name === query ? 0 : m.indices[0] === 0 ? 1 : 2);
  // Array.prototype.sort is stable: presentation order within each rank.
  return matched.sort((a, b) => rank(a) - rank(b));
}

export interface CommandPopupRow {
  /** `/name`, as displayed. */
  label: string;
  description: string;
  /** Indices into `label` to highlight (the `/` is not highlighted). */
  highlight: number[];
  /** The command cannot run now (a task is in progress); the row is dimmed. */
  disabled: boolean;
}

/**
 * Rows for the `/` popup: the filtered commands, with the ones unavailable during a task marked;
 * `inDraft` (a `/` inside the draft), only the draft commands the filter starts.
 */
export function commandPopupRows(filter: string, opts: { taskRunning: boolean; inDraft?: boolean }): CommandPopupRow[] {
  const matches = filterCommands(filter).filter(
    ({ command }) => opts.inDraft !== true || (isDraftCommand(command.name) && command.name.startsWith(filter.toLowerCase())),
  );
  return matches.map(({ command, indices }) => ({
    label: `/${command.name}`,
    description: command.description,
    highlight: indices.map((i) => i + 1),
    disabled: opts.taskRunning && !command.availableDuringTask,
  }));
}
