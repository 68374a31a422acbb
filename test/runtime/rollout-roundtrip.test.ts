/** Every rollout record kind written by the writer (file and memory) and read back as the same thread. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadItem } from '../../src/protocol/api.js';
import { registerSecret } from '../../src/protocol/redact.js';
import type { HistoryEntry } from '../../src/runtime/core/history.js';
import { newId } from '../../src/runtime/core/ids.js';
import {
  DISPLAY_OUTPUT_MAX_CHARS,
  ROLLOUT_VERSION,
  type RolloutHeader,
  type RolloutLine,
  type RolloutSettings,
} from '../../src/runtime/rollout/format.js';
import { readRollout } from '../../src/runtime/rollout/reader.js';
import { FileRolloutWriter, MemoryRollout, type RolloutSink } from '../../src/runtime/rollout/writer.js';
import { ThreadRecorder } from '../../src/runtime/threads/recorder.js';
import { tempDir } from './support/harness.js';

const settings: RolloutSettings = {
  model: 'm',
  effort: 'high',
  approvalPolicy: 'on-request',
  sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/w'], networkAccess: false },
  cwd: '/work',
};
const IMAGE = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUg'.repeat(200)}`;

function header(threadId: string): RolloutHeader {
  return {
    type: 'header',
    version: ROLLOUT_VERSION,
    threadId,
    sessionId: threadId,
    cwd: '/work',
    model: 'm',
    provider: 'fake',
    createdAt: 1_700_000_000_000,
    cliVersion: '1.2.3',
    source: 'cli',
    forkedFromId: null,
  };
}

const user: HistoryEntry = {
  type: 'userInput',
  content: [
    {
      type: 'text',
      text: 'look at [Image #1] and $skill',
      text_elements: [{ byte_range: { start: 8, end: 18 }, placeholder: '[Image #1]' }],
    },
    { type: 'local_image', path: '/tmp/a.png', detail: 'high' },
    { type: 'skill', name: 'skill', path: '/skills/skill/SKILL.md' },
  ],
  converted: [
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'look at [Image #1] and $skill' },
        { type: 'input_text', text: '<image name=[Image #1]>' },
        { type: 'input_image', image_url: IMAGE, detail: 'high' },
        { type: 'input_text', text: '</image>' },
      ],
    },
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'a notice' }] },
  ],
};
const items: HistoryEntry[] = [
  { type: 'item', item: { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'skill body' }] } },
  {
    type: 'item',
    item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'enc' },
  },
  { type: 'item', item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"command":"ls"}' } },
  { type: 'item', item: { type: 'function_call_output', call_id: 'call_1', output: 'a\nb\n' } },
  { type: 'item', item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } },
  { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<turn_aborted>\n…\n</turn_aborted>' }] } },
];
const threadItems: ThreadItem[] = [
  {
    type: 'userMessage',
    id: 'u1',
    content: [
      { type: 'text', text: 'look', text_elements: [{ byteRange: { start: 0, end: 4 }, placeholder: null }] },
      { type: 'localImage', path: '/tmp/a.png' },
    ],
  },
  { type: 'reasoning', id: 'r1', summary: ['thinking'], content: [] },
  {
    type: 'commandExecution',
    id: 'c1',
    command: 'ls',
    commandActions: [{ type: 'unknown', command: 'ls' }],
    cwd: '/work',
    status: 'completed',
    aggregatedOutput: 'a\nb\n',
    exitCode: 0,
    durationMs: 3,
  },
  {
    type: 'mcpToolCall',
    id: 'm1',
    server: 's',
    tool: 't',
    status: 'failed',
    arguments: { q: 1 },
    result: { content: [{ type: 'text', text: 'no' }], structuredContent: null },
    error: { message: 'no' },
    durationMs: 2,
  },
  { type: 'agentMessage', id: 'a1', text: 'done' },
  { type: 'contextCompaction', id: 'x1' },
];
const usage = {
  total: { inputTokens: 30, cachedInputTokens: 5, outputTokens: 7, reasoningOutputTokens: 2, totalTokens: 37 },
  last: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 3, reasoningOutputTokens: 1, totalTokens: 13 },
};

/** Two turns, a settings change, a compaction replacement, a revert of the second turn. */
function script(threadId: string): { lines: RolloutLine[]; t1: string; t2: string } {
  const [t1, t2] = [newId(), newId()];
  const lines: RolloutLine[] = [
    header(threadId),
    {
      type: 'context',
      items: [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'AGENTS.md' }] }],
      files: [{ path: '/work/AGENTS.md', bytes: 9, fileBytes: 9 }],
    },
    { type: 'settings', settings },
    { type: 'turnStarted', turnId: t1, at: 1_700_000_001_000, kind: 'regular', settings },
    { type: 'history', turnId: t1, entry: user },
    ...items.map((entry): RolloutLine => ({ type: 'history', turnId: t1, entry })),
    ...threadItems.map((item): RolloutLine => ({ type: 'item', turnId: t1, item })),
    { type: 'turnCompleted', turnId: t1, at: 1_700_000_002_000, status: 'completed', error: null, durationMs: 1000, usage },
    {
      type: 'history',
      turnId: null,
      entry: { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_shell_command>…' }] } },
    },
    { type: 'settings', settings: { ...settings, model: 'm2' } },
    { type: 'turnStarted', turnId: t2, at: 1_700_000_003_000, kind: 'compact', settings: { ...settings, model: 'm2' } },
    {
      type: 'replaceHistory',
      turnId: t2,
      history: [
        {
          turnId: t2,
          entry: { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'summary' }] } },
        },
      ],
    },
    {
      type: 'turnCompleted',
      turnId: t2,
      at: 1_700_000_004_000,
      status: 'failed',
      error: { message: 'x', codexErrorInfo: 'other', additionalDetails: null },
      durationMs: 5,
      usage: null,
    },
  ];
  return { lines, t1, t2 };
}

async function writeAll(sink: RolloutSink, lines: RolloutLine[]): Promise<void> {
  for (const line of lines) sink.append(line);
  await sink.close();
}

describe('rollout round trip', () => {
  for (const kind of ['file', 'memory'] as const) {
    it(`every record kind comes back (${kind})`, async () => {
      const threadId = newId();
      const { lines, t1, t2 } = script(threadId);
      const sink = kind === 'file' ? new FileRolloutWriter({ path: join(tempDir(), 'r.jsonl'), threadId }) : new MemoryRollout();
      await writeAll(sink, lines);
      const { snapshot, warnings } = await readRollout(sink.source());
      expect(warnings).toEqual([]);
      expect(snapshot.header).toEqual(lines[0]);
      expect(snapshot.context).toEqual({
        items: (lines[1] as { items: unknown }).items,
        files: [{ path: '/work/AGENTS.md', bytes: 9, fileBytes: 9 }],
      });
      expect(snapshot.settings).toEqual({ ...settings, model: 'm2' });
      expect(snapshot.usage).toEqual(usage);
      expect(snapshot.preview).toBe('look at [Image #1] and $skill');
      expect(snapshot.history).toEqual([
        { type: 'item', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'summary' }] } },
      ]);
      expect(snapshot.turns.map((t) => [t.id, t.status, t.startedAt, t.completedAt, t.durationMs])).toEqual([
        [t1, 'completed', 1_700_000_001, 1_700_000_002, 1000],
        [t2, 'failed', 1_700_000_003, 1_700_000_004, 5],
      ]);
      expect(snapshot.turns[0]!.items).toEqual(threadItems);
      expect(snapshot.turns[1]!.error).toMatchObject({ message: 'x' });
      expect([...snapshot.compactTurnIds]).toEqual([t2]);

      // Replayed up to the compaction: the first turn's history, with the data URL sent, whole.
      const before = await readRollout(sink.source(), { stop: { beforeTurn: t2 } });
      expect(before.reached).toBe(true);
      const shell = lines.find((line) => line.type === 'history' && line.turnId === null) as { entry: HistoryEntry };
      expect(before.snapshot.history).toEqual([user, ...items, shell.entry]);
      // An entry from outside a turn belongs to the turn before it.
      expect(before.snapshot.historyTurnIds).toEqual(Array(items.length + 2).fill(t1));
      expect(before.snapshot.turns.map((t) => t.id)).toEqual([t1]);
      const through = await readRollout(sink.source(), { stop: { afterTurn: t1 } });
      expect(through.snapshot.history).toEqual([user, ...items]);
      expect(through.snapshot.settings).toEqual(settings);
      expect((await readRollout(sink.source(), { stop: { afterTurn: 'nope' } })).reached).toBe(false);
    });
  }

  it('a revert cuts by turn; one before a compaction is replayed from its replacement line', async () => {
    const threadId = newId();
    const { lines, t1, t2 } = script(threadId);
    const sink = new MemoryRollout();
    await writeAll(sink, [...lines, { type: 'revert', beforeTurnId: t2, at: 1_700_000_005_000 }]);
    const cut = (await readRollout(sink.source())).snapshot;
    expect(cut.turns.map((t) => t.id)).toEqual([t1]);
    // The compaction's replacement went with its turn: what is left is cut from it, not the old history.
    expect(cut.history).toEqual([]);
    const fixed = new MemoryRollout();
    await writeAll(fixed, [
      ...lines,
      { type: 'revert', beforeTurnId: t2, at: 1_700_000_005_000 },
      { type: 'replaceHistory', turnId: null, history: [user, ...items].map((entry) => ({ turnId: t1, entry })) },
    ]);
    const replayed = (await readRollout(fixed.source())).snapshot;
    expect(replayed.history).toEqual([user, ...items]);
    expect(replayed.compactTurnIds.size).toBe(0);
    const all = new MemoryRollout();
    await writeAll(all, [...lines, { type: 'revert', beforeTurnId: t1, at: 1 }]);
    expect((await readRollout(all.source())).snapshot).toMatchObject({ turns: [], history: [], preview: '' });
  });

  it('the display copy of a huge command output is cut, head and tail; the model history line stays whole', async () => {
    const dir = tempDir();
    const threadId = newId();
    const sink = new FileRolloutWriter({ path: join(dir, 'r.jsonl'), threadId });
    const recorder = new ThreadRecorder(sink, {
      header: header(threadId),
      settings,
      preview: '',
      turnIds: [],
      compactTurnIds: new Set(),
      usage: null,
      updatedAt: 0,
    });
    sink.append(header(threadId));
    const turnId = newId();
    recorder.turnStarted({ id: turnId, kind: 'regular', startedAtMs: 1, context: { ...settings } });
    const huge = `HEAD${'x'.repeat(DISPLAY_OUTPUT_MAX_CHARS * 3)}TAIL`;
    recorder.appended({ type: 'item', item: { type: 'function_call_output', call_id: 'c', output: huge } }, turnId);
    const item: ThreadItem = {
      type: 'commandExecution',
      id: 'c',
      command: 'yes',
      commandActions: [{ type: 'unknown', command: 'yes' }],
      cwd: '/',
      status: 'completed',
      aggregatedOutput: huge,
      exitCode: 0,
      durationMs: 1,
    };
    recorder.observe({ method: 'item/completed', params: { threadId, turnId, item, completedAtMs: 2 } });
    recorder.observe({
      method: 'turn/completed',
      params: {
        threadId,
        turn: {
          id: turnId,
          items: [],
          itemsView: 'notLoaded',
          status: 'completed',
          error: null,
          startedAt: 0,
          completedAt: 0,
          durationMs: 1,
        },
      },
    });
    await recorder.close();
    const { snapshot } = await readRollout(sink.source());
    expect(snapshot.history[0]).toMatchObject({ item: { output: huge } });
    const shown = (snapshot.turns[0]!.items[0] as { aggregatedOutput: string }).aggregatedOutput;
    expect(shown.length).toBeLessThan(DISPLAY_OUTPUT_MAX_CHARS + 100);
    expect(shown.startsWith('HEAD')).toBe(true);
    expect(shown.endsWith('TAIL')).toBe(true);
    expect(shown).toContain('characters not kept');
  });

  it('a registered secret (the API key pasted into a prompt) never reaches the file; the JSON stays whole', async () => {
    const secret = `tiller-rollout-secret-${Math.random().toString(36).slice(2)}`;
    registerSecret(secret);
    const path = join(tempDir(), 'r.jsonl');
    const threadId = newId();
    const sink = new FileRolloutWriter({ path, threadId });
    await writeAll(sink, [
      header(threadId),
      {
        type: 'history',
        turnId: null,
        entry: {
          type: 'item',
          item: {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: `key "${secret}" Authorization: Bearer ${secret}\\"` }],
          },
        },
      },
    ]);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(secret);
    const { snapshot, warnings } = await readRollout({ kind: 'file', path });
    expect(warnings).toEqual([]);
    expect(JSON.stringify(snapshot.history)).toContain('[REDACTED]');
  });
});
