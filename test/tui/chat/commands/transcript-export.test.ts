/** /export's Markdown and JSON: what the conversation held, in order, and nothing of Tiller's own notices. */
import { describe, expect, it } from 'vitest';
import { exportEntries, parseExportArgs, transcriptJson, transcriptMarkdown } from '../../../../src/tui/chat/commands/transcript-export.js';
import type { TranscriptCell } from '../../../../src/tui/store-types.js';

const cells: TranscriptCell[] = [
  { kind: 'info', id: 0, text: 'Vim mode enabled.' },
  { kind: 'user', id: 1, text: 'fix it', textElements: [], attachmentLabels: ['[Image #1] shot.png'], turnId: 't1' },
  { kind: 'reasoning', id: 2, text: 'Looking\nat it' },
  { kind: 'command', id: 3, command: 'echo ```', output: 'a ``` b\n', exitCode: 0, status: 'completed', source: 'model' },
  {
    kind: 'patch',
    id: 4,
    status: 'completed',
    files: [{ path: 'a.ts', kind: 'update', movePath: null, diff: '-x\n+y', added: 1, removed: 1 }],
  },
  {
    kind: 'plan',
    id: 5,
    explanation: null,
    steps: [
      { step: 'read', status: 'completed' },
      { step: 'write', status: 'pending' },
    ],
  },
  { kind: 'error', id: 6, text: 'Could not copy' },
  { kind: 'agent', id: 7, markdown: 'Done: **fixed**.' },
];

describe('transcript export', () => {
  it('Markdown: each entry in order; fences longer than any backtick run inside; notices left out', () => {
    expect(transcriptMarkdown(cells, 'T')).toBe(
      [
        '# T',
        '## User\n\nfix it\n- [Image #1] shot.png',
        '> _Reasoning:_ Looking\n> at it',
        '### Command: `echo ```` (exit 0)\n\n````\na ``` b\n````',
        '### Patch (completed)\n\nupdate a.ts\n\n```diff\n-x\n+y\n```',
        '### Plan\n\n- [x] read\n- [ ] write',
        '## Assistant\n\nDone: **fixed**.',
      ].join('\n\n') + '\n',
    );
  });

  it('JSON: the same entries, with the thread id', () => {
    const parsed = JSON.parse(transcriptJson(cells, { threadId: 'th' }));
    expect(parsed.threadId).toBe('th');
    expect(parsed.entries).toEqual(exportEntries(cells));
    expect(parsed.entries.map((e: { role: string }) => e.role)).toEqual(['user', 'reasoning', 'command', 'patch', 'plan', 'assistant']);
  });

  it('parses [PATH] [--json] in any order; a path may have spaces', () => {
    expect(parseExportArgs('')).toEqual({ path: null, format: 'markdown' });
    expect(parseExportArgs('--json')).toEqual({ path: null, format: 'json' });
    expect(parseExportArgs('--json my notes.json')).toEqual({ path: 'my notes.json', format: 'json' });
    expect(parseExportArgs('x.md --md')).toEqual({ error: 'Unknown option --md. Usage: /export [PATH] [--json]' });
  });
});
