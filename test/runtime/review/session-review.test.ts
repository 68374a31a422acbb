/**
 * Tiller's review target `tiller/sessionChanges`: the review is given exactly what the agent's turns
 * changed (from their checkpoints), never the user's own edits around them; the request is marked
 * as Codex marks a review (sub-agent metadata and header, low verbosity); a Codex client is refused it.
 */
import { writeFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessAppServer } from '../../../src/runtime/app-server.js';
import { type Harness, startHarness, tempDir, testConfig, text } from '../support/harness.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const patchOf = (file: string, from: string, to: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n-${from}\n+${to}\n*** End Patch`;

function workspace(): string {
  const ws = realpathSync(tempDir('tiller-ws-'));
  writeFileSync(join(ws, 'agent.txt'), 'one\n');
  writeFileSync(join(ws, 'user.txt'), 'mine\n');
  return ws;
}

async function agentTurn(patch: string): Promise<void> {
  h.fake.enqueue({ customToolCalls: [{ name: 'apply_patch', input: patch }] }, { text: 'done' });
  const before = h.log.of('turn/completed').length;
  await h.server.request('turn/start', { threadId: h.threadId, input: [text('go')] });
  while (h.log.of('turn/completed').length === before) await new Promise((r) => setTimeout(r, 10));
  // The workspace the turn left is recorded just after it ends; the user edits after that.
  const turnId = h.log.of('turn/completed').at(-1)!.turn.id;
  const recorded = () => h.log.of('tiller/turn/checkpoint').some((n) => n.checkpoint.turnId === turnId && n.checkpoint.after !== null);
  while (!recorded()) await new Promise((r) => setTimeout(r, 10));
}

function lastUserText(body: Record<string, unknown>): string {
  const input = body.input as Array<{ type: string; role?: string; content?: Array<{ text?: string }> }>;
  const user = input.filter((i) => i.type === 'message' && i.role === 'user').at(-1)!;
  return (user.content ?? []).map((c) => c.text ?? '').join('');
}

const FINDINGS = JSON.stringify({
  findings: [],
  overall_correctness: 'patch is correct',
  overall_explanation: 'Fine.',
  overall_confidence_score: 0.9,
});

describe('reviewing the changes of this session', () => {
  it("sends only the agent's patches, not the user's uncommitted edits before, between or after its turns", async () => {
    const ws = workspace();
    h = await startHarness({ config: { checkpoints: true }, cwd: ws });
    writeFileSync(join(ws, 'user.txt'), 'mine, edited before\n');
    await agentTurn(patchOf('agent.txt', 'one', 'two'));
    writeFileSync(join(ws, 'user.txt'), 'mine, edited between\n');
    await agentTurn(patchOf('agent.txt', 'two', 'three'));
    writeFileSync(join(ws, 'late.txt'), 'the user, after\n');
    const turns = h.fake.requests.length;

    h.fake.enqueue({ text: FINDINGS });
    await h.server.request('review/start', { threadId: h.threadId, target: { type: 'tiller/sessionChanges' } });
    await h.fake.waitForRequests(turns + 1);
    const review = h.fake.requests[turns]!;
    const prompt = lastUserText(review.body);
    expect(prompt).toMatch(/^Review the code changes the agent made in this session\./);
    expect(prompt).toContain('-one\n+two');
    expect(prompt).toContain('-two\n+three');
    expect(prompt).not.toContain('user.txt');
    expect(prompt).not.toContain('mine');
    expect(prompt).not.toContain('late.txt');

    // Marked as Codex marks a review request; the agent's own turns were not.
    expect(review.body.client_metadata).toEqual({ 'x-openai-subagent': 'review' });
    expect(review.headers['x-openai-subagent']).toBe('review');
    expect((review.body.text as { verbosity?: string }).verbosity).toBe('low');
    for (const normal of h.fake.requests.slice(0, turns)) {
      expect(normal.body.client_metadata).toBeUndefined();
      expect(normal.headers['x-openai-subagent']).toBeUndefined();
    }
  });

  it('fails the review turn, saying why, when the agent changed nothing', async () => {
    h = await startHarness({ config: { checkpoints: true }, cwd: workspace() });
    await h.server.request('review/start', { threadId: h.threadId, target: { type: 'tiller/sessionChanges' } });
    const done = await h.log.waitFor('turn/completed');
    expect(done.turn.status).toBe('failed');
    expect(done.turn.error?.message).toMatch(/the agent has not changed any files in this session/);
    expect(h.fake.requests).toHaveLength(0);
  });

  it("is not offered to a Codex client: Codex's error for an unknown target", async () => {
    h = await startHarness({ cwd: workspace() });
    const codex = createInProcessAppServer({ config: testConfig({ baseUrl: h.fake.baseUrl }), cwd: tempDir() });
    await codex.request('initialize', { clientInfo: { name: 'codex-client', version: '0' }, capabilities: {} });
    const { thread } = await codex.request('thread/start', {});
    await expect(
      codex.request('review/start', { threadId: thread.id, target: { type: 'tiller/sessionChanges' } } as never),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid params: target\.type: /),
    });
    await codex.close();
  });
});
