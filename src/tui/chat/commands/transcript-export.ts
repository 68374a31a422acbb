/**
 * /export: the conversation as Markdown or JSON. What the user and the model said, the commands,
 * tool calls, patches and plans, in transcript order; Tiller's own notices, errors and warnings
 * (/status, /mcp, a command's answer) are left out: they are about Tiller, not the conversation. Pure, so the test compares it with the cells themselves.
 */
import type { TranscriptCell } from '../../store-types.js';

export type ExportFormat = 'markdown' | 'json';

export interface ExportRequest {
  /** Absent: the clipboard. */
  path: string | null;
  format: ExportFormat;
}

export const EXPORT_USAGE = 'Usage: /export [PATH] [--json]';

/** `/export [PATH] [--json]`; a path with spaces is written as typed (one argument). */
export function parseExportArgs(args: string): ExportRequest | { error: string } {
  const words = args.trim() === '' ? [] : args.trim().split(/\s+/u);
  const json = words.includes('--json');
  const rest = words.filter((w) => w !== '--json');
  const unknown = rest.find((w) => w.startsWith('--'));
  if (unknown !== undefined) return { error: `Unknown option ${unknown}. ${EXPORT_USAGE}` };
  const path = rest.join(' ');
  return { path: path === '' ? null : path, format: json ? 'json' : 'markdown' };
}

/** One exported entry: who spoke and what (JSON export; Markdown is drawn from these). */
export type ExportEntry =
  | { role: 'user'; text: string; attachments: string[] }
  | { role: 'assistant'; text: string }
  | { role: 'reasoning'; text: string }
  | { role: 'command'; command: string; source: 'user' | 'model'; exitCode: number | null; status: string; output: string }
  | { role: 'tool'; name: string; arguments: string; status: string }
  | { role: 'patch'; status: string; files: Array<{ path: string; kind: string; diff: string }> }
  | { role: 'plan'; explanation: string | null; steps: Array<{ step: string; status: string }> };

export function exportEntries(cells: readonly TranscriptCell[]): ExportEntry[] {
  return cells.flatMap((cell): ExportEntry[] => {
    switch (cell.kind) {
      case 'user':
        return [{ role: 'user', text: cell.text, attachments: cell.attachmentLabels }];
      case 'agent':
        return [{ role: 'assistant', text: cell.markdown }];
      case 'reasoning':
        return [{ role: 'reasoning', text: cell.text }];
      case 'command':
        return [
          {
            role: 'command',
            command: cell.command,
            source: cell.source,
            exitCode: cell.exitCode,
            status: cell.status,
            output: cell.output,
          },
        ];
      case 'mcp':
        return [{ role: 'tool', name: `${cell.server}.${cell.tool}`, arguments: cell.arguments, status: cell.status }];
      case 'patch':
        return [{ role: 'patch', status: cell.status, files: cell.files.map((f) => ({ path: f.path, kind: f.kind, diff: f.diff })) }];
      case 'commandChanges':
        return [
          { role: 'patch', status: 'changed by commands', files: cell.files.map((f) => ({ path: f.path, kind: f.kind, diff: f.diff })) },
        ];
      case 'plan':
        return [{ role: 'plan', explanation: cell.explanation, steps: cell.steps.map((s) => ({ step: s.step, status: s.status })) }];
      default:
        return [];
    }
  });
}

/** A fence longer than any backtick run inside, so the content cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n$/u, '')}\n${fence}`;
}

function entryMarkdown(entry: ExportEntry): string {
  switch (entry.role) {
    case 'user':
      return [`## User`, '', entry.text, ...entry.attachments.map((a) => `- ${a}`)].join('\n');
    case 'assistant':
      return `## Assistant\n\n${entry.text}`;
    case 'reasoning':
      return `> _Reasoning:_ ${entry.text.replace(/\n/gu, '\n> ')}`;
    case 'command': {
      const exit = entry.exitCode === null ? entry.status : `exit ${entry.exitCode}`;
      const who = entry.source === 'user' ? 'Shell (user)' : 'Command';
      return `### ${who}: \`${entry.command}\` (${exit})\n\n${fenced(entry.output)}`;
    }
    case 'tool':
      return `### Tool: ${entry.name} (${entry.status})\n\n${fenced(entry.arguments, 'json')}`;
    case 'patch':
      return [`### Patch (${entry.status})`, ...entry.files.map((f) => `\n${f.kind} ${f.path}\n\n${fenced(f.diff, 'diff')}`)].join('\n');
    case 'plan':
      return [
        `### Plan`,
        ...(entry.explanation ? ['', entry.explanation] : []),
        '',
        ...entry.steps.map((s) => `- [${s.status === 'completed' ? 'x' : ' '}] ${s.step}`),
      ].join('\n');
  }
}

export function transcriptMarkdown(cells: readonly TranscriptCell[], title: string): string {
  return [`# ${title}`, ...exportEntries(cells).map(entryMarkdown)].join('\n\n') + '\n';
}

export function transcriptJson(cells: readonly TranscriptCell[], meta: { threadId: string | null }): string {
  return `${JSON.stringify({ threadId: meta.threadId, entries: exportEntries(cells) }, null, 2)}\n`;
}
