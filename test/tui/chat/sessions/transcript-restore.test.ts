import { describe, expect, it } from 'vitest';
import type { ThreadItem, Turn, V2TextElement, V2UserInput } from '../../../../src/protocol/api.js';
import {
  COMPACTED_MESSAGE,
  earlierTurnsText,
  INTERRUPTED_MESSAGE,
  joinedText,
  promptCell,
  turnPrompts,
  turnsToCells,
  UNFINISHED_TURN_MESSAGE,
} from '../../../../src/tui/chat/sessions/transcript-restore.js';

const text = (t: string, elements: V2TextElement[] = []): V2UserInput => ({ type: 'text', text: t, text_elements: elements });

function recorded(id: string, items: ThreadItem[], status: Turn['status'] = 'completed', error: Turn['error'] = null): Turn {
  return { id, items, itemsView: 'full', status, error, startedAt: 1, completedAt: 2, durationMs: 1 };
}

const user = (content: V2UserInput[]): ThreadItem => ({ type: 'userMessage', id: 'u', content });
const agent = (t: string): ThreadItem => ({ type: 'agentMessage', id: 'a', text: t });

describe('turnsToCells: a recorded thread as it looked', () => {
  it('prompts, thoughts, answers, commands, MCP calls and compactions in order; the turn id on the first prompt only', () => {
    const turns = [
      recorded('t1', [
        user([text('first **question**')]),
        { type: 'reasoning', id: 'r', summary: ['thinking'], content: [] },
        {
          type: 'commandExecution',
          id: 'c',
          command: 'ls',
          commandActions: [],
          cwd: '/w',
          status: 'completed',
          aggregatedOutput: 'a\nb\n',
          exitCode: 0,
          durationMs: 3,
        },
        agent('The **answer**'),
        user([text('steered in')]),
        agent(''),
      ]),
      recorded('t2', [
        {
          type: 'mcpToolCall',
          id: 'm',
          server: 'docs',
          tool: 'search',
          status: 'completed',
          arguments: { q: 'x' },
          result: { content: [{ type: 'text', text: 'found' }], structuredContent: null },
          error: null,
          durationMs: 12,
        },
        { type: 'contextCompaction', id: 'k' },
      ]),
    ];
    expect(turnsToCells(turns)).toEqual([
      { kind: 'user', text: 'first **question**', textElements: [], attachmentLabels: [], turnId: 't1' },
      { kind: 'reasoning', text: 'thinking' },
      { kind: 'command', command: 'ls', output: 'a\nb\n', exitCode: 0, status: 'completed', durationMs: 3, source: 'model' },
      { kind: 'agent', markdown: 'The **answer**' },
      { kind: 'user', text: 'steered in', textElements: [], attachmentLabels: [], turnId: null },
      {
        kind: 'mcp',
        server: 'docs',
        tool: 'search',
        arguments: '{"q":"x"}',
        status: 'completed',
        result: { kind: 'text', text: 'found' },
        durationMs: 12,
      },
      { kind: 'info', text: COMPACTED_MESSAGE },
    ]);
  });

  it('says how a turn ended when it did not complete; a command left running reads interrupted', () => {
    const turns = [
      recorded(
        't1',
        [
          user([text('a')]),
          {
            type: 'commandExecution',
            id: 'c',
            command: 'sleep 9',
            commandActions: [],
            cwd: '/',
            status: 'inProgress',
            aggregatedOutput: null,
            exitCode: null,
            durationMs: null,
          },
        ],
        'interrupted',
      ),
      recorded('t2', [user([text('b')])], 'failed', { message: 'rate limited', codexErrorInfo: null, additionalDetails: null }),
      recorded('t3', [user([text('c')])], 'inProgress'),
    ];
    const cells = turnsToCells(turns);
    expect(cells.filter((c) => c.kind !== 'user')).toEqual([
      { kind: 'command', command: 'sleep 9', output: '', exitCode: null, status: 'interrupted', durationMs: null, source: 'model' },
      { kind: 'error', text: INTERRUPTED_MESSAGE },
      { kind: 'error', text: 'rate limited' },
      { kind: 'warning', text: UNFINISHED_TURN_MESSAGE },
    ]);
  });

  it('shows only the last turns of a long thread, after a note of how many are left out', () => {
    const turns = Array.from({ length: 250 }, (_, i) => recorded(`t${i}`, [user([text(`q${i}`)]), agent(`a${i}`)]));
    const cells = turnsToCells(turns);
    expect(cells[0]).toEqual({ kind: 'info', text: earlierTurnsText(150), hint: 'The model still has the whole conversation.' });
    expect(cells).toHaveLength(1 + 200);
    expect(cells[1]).toMatchObject({ kind: 'user', text: 'q150', turnId: 't150' });
    expect(cells.at(-1)).toEqual({ kind: 'agent', markdown: 'a249' });
    expect(turnsToCells(turns.slice(0, 3), 2)[0]).toMatchObject({ text: '1 earlier turn is not shown.' });
    expect(turnsToCells([])).toEqual([]);
  });
});

describe('promptCell: a recorded prompt', () => {
  it('joins its text items with their elements shifted, and labels its media as the live cell does', () => {
    const content: V2UserInput[] = [
      { type: 'localImage', path: '/tmp/shots/a.png' },
      { type: 'image', url: 'data:image/png;base64,AAAA' },
      text('é [Image #1]', [{ byteRange: { start: 3, end: 13 }, placeholder: '[Image #1]' }]),
      text(' and $deploy', [{ byteRange: { start: 5, end: 12 }, placeholder: null }]),
      { type: 'localAudio', path: '/tmp/v.wav' },
      { type: 'skill', name: 'deploy', path: '/s/SKILL.md' },
    ];
    expect(promptCell(content, 't9')).toEqual({
      kind: 'user',
      text: 'é [Image #1] and $deploy',
      textElements: [{ byte_range: { start: 3, end: 13 }, placeholder: '[Image #1]' }, { byte_range: { start: 18, end: 25 } }],
      attachmentLabels: ['[Image #1] a.png', '[Image #2]', '[Audio #1] v.wav'],
      turnId: 't9',
    });
    expect(joinedText([]).text).toBe('');
  });

  it('turnPrompts keeps the first prompt of each turn', () => {
    const turns = [recorded('t1', [user([text('one')]), user([text('steer')])]), recorded('t2', [agent('x')])];
    expect([...turnPrompts(turns)]).toEqual([['t1', [text('one')]]]);
  });
});
