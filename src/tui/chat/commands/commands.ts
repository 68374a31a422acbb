/**
 * Text of the informational slash commands (/help, /status, /skills): pure builders, so
 * the controller only decides when to show them.
 */
import stringWidth from '../../string-width.js';
import type { TillerInstructionFile, TokenUsageBreakdown } from '../../../protocol/api.js';
import { SLASH_COMMANDS } from '../../composer/slash-commands.js';
import type { SkillRef } from '../../routing.js';
import { describeApprovalMode, type ApprovalMode } from '../approvals/approval-modes.js';
import { contextLeftPercent, contextWindowFor } from '../turn/context-window.js';

export function helpText(platform: NodeJS.Platform = process.platform): string {
  const alt = platform === 'darwin' ? '⌥' : 'alt';
  const keys: Array<[string, string]> = [
    ['enter', 'send (while the model works: steer the current turn)'],
    ['shift + enter, ctrl + j', 'new line'],
    ['tab', 'queue a follow-up while the model works'],
    ['shift + tab', 'next approval mode (/approvals to choose one)'],
    [`${alt} + , / ${alt} + .`, 'lower / raise the reasoning effort (/model to choose)'],
    ['esc', 'interrupt the model (pending steers are sent at once)'],
    ['esc esc', 'on an empty composer: go back to an earlier message (the conversation, the files, or both)'],
    [`${alt} + ↑`, 'edit the last queued message'],
    ['↑ / ↓, ctrl + r', 'browse / search the message history'],
    ['ctrl + v', 'paste an image from the clipboard'],
    ['@ / $', 'mention a file or an MCP server (mcp://NAME) / a skill'],
    ['!cmd', 'run a shell command locally'],
    ['ctrl + g', 'edit the draft in $VISUAL / $EDITOR'],
    ['ctrl + l', 'clear the screen (the conversation goes on)'],
    ['ctrl + o', 'copy the last answer'],
    ['ctrl + t', 'the whole transcript in a pager (q closes it)'],
    ['/findings, then f / y', 'put a review finding into the composer to fix it / copy it'],
    ['ctrl + c', 'clear the draft; on an empty draft interrupt the model, or quit when idle'],
  ];
  return ['Commands:', ...table(SLASH_COMMANDS.map((c) => [`/${c.name}`, c.description] as const)), 'Keys:', ...table(keys)].join('\n');
}

/** Two indented columns, the second aligned two cells after the widest entry of the first. */
function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([name]) => stringWidth(name)));
  return rows.map(([name, text]) => `  ${name}${' '.repeat(width - stringWidth(name))}  ${text}`);
}

export interface StatusInfo {
  model: string;
  providerLabel: string;
  cwd: string;
  threadId: string | null;
  approvalMode: ApprovalMode;
  /** The reasoning effort the next turn sends, when one is set. */
  effort?: string | null;
  tokenUsage: { total: TokenUsageBreakdown; last: TokenUsageBreakdown } | null;
  /** The AGENTS.md files the thread's model was given, in the order sent. */
  instructions?: readonly TillerInstructionFile[];
}

/** `AGENTS.md: PATH (N bytes)`, one file a row, a cut one as `N of M bytes`. */
function instructionLines(files: readonly TillerInstructionFile[]): string[] {
  if (files.length === 0) return ['AGENTS.md: none'];
  return files.map((file, i) => {
    const size =
      file.bytes < file.fileBytes ? `${file.bytes} of ${file.fileBytes} bytes, cut to project_doc_max_bytes` : `${file.bytes} bytes`;
    return `${i === 0 ? 'AGENTS.md:' : '          '} ${file.path} (${size})`;
  });
}

export function statusText(info: StatusInfo): string {
  const usage = info.tokenUsage?.total;
  return [
    `Model:     ${info.model}${info.effort ? ` (reasoning effort ${info.effort})` : ''}`,
    `Provider:  ${info.providerLabel}`,
    `Directory: ${info.cwd}`,
    `Thread:    ${info.threadId ?? '(not started)'}`,
    `Approvals: ${describeApprovalMode(info.approvalMode)}`,
    ...(info.instructions !== undefined ? instructionLines(info.instructions) : []),
    usage === undefined
      ? 'Tokens:    none used yet'
      : `Tokens:    ${usage.inputTokens} input (${usage.cachedInputTokens} cached), ${usage.outputTokens} output (${usage.reasoningOutputTokens} reasoning)`,
    ...contextLine(info.model, info.tokenUsage?.last),
  ].join('\n');
}

/** What is left of the model's context window after the last request; no percentage for a model whose window is not known. */
function contextLine(model: string, last: TokenUsageBreakdown | undefined): string[] {
  const window = contextWindowFor(model);
  if (window === null) return [`Context:   window of ${model} not known`];
  const left = last === undefined ? 100 : contextLeftPercent(last, window);
  const used = last === undefined ? 0 : last.totalTokens;
  return [`Context:   ${left}% left (${used.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens in the last request)`];
}

export function skillsText(skills: readonly SkillRef[]): string {
  if (skills.length === 0) return 'No skills found.';
  return ['Skills (mention with $name):', ...skills.map((s) => `  $${s.name}  ${s.path}`)].join('\n');
}
