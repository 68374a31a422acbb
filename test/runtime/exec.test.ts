import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

const env = () => fakeServerEnv(fake);

/** A PNG signature and a header claiming 30000×30000 pixels, nothing behind them: not a valid image. */
function headerOnlyPng(): string {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(30_000, 8);
  ihdr.writeUInt32BE(30_000, 12);
  const path = join(env().TILLER_HOME!, 'header.png');
  writeFileSync(path, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]));
  return path;
}

describe('tiller exec --json', () => {
  it('emits the events in order and exits 0', async () => {
    fake.enqueue({ text: 'the final answer', usage: { input_tokens: 7, output_tokens: 3 } });
    const child = spawnTiller(['exec', '--json', 'say it'], env());
    expect(await child.exit).toBe(0);
    const out = jsonEvents(child.lines);
    expect(out.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    expect(out[0]!.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out[2]).toEqual({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'the final answer' } });
    expect(out[3]).toEqual({
      type: 'turn.completed',
      usage: { input_tokens: 7, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 3, reasoning_output_tokens: 0 },
      // Tiller's: the prompt's delivery receipt.
      tiller_inputs_delivered: [{ sampling_request: 1, after_item: null, delivered_at_ms: expect.any(Number) }],
    });
  });

  it('reports config warnings as error items after thread.started', async () => {
    const e = env();
    writeFileSync(join(e.TILLER_HOME!, 'config.toml'), 'bogus_key = 1\n');
    const child = spawnTiller(['exec', '--json', 'x'], e);
    expect(await child.exit).toBe(0);
    const out = jsonEvents(child.lines);
    expect(out.map((x) => x.type)).toEqual(['thread.started', 'item.completed', 'turn.started', 'item.completed', 'turn.completed']);
    expect(out[1]).toMatchObject({ item: { id: 'item_0', type: 'error', message: expect.stringContaining('config.toml') } });
  });

  it('reports retries as error events and a failure as turn.failed, exit 1', async () => {
    // A 429 is a stream retry, announced (a 5xx is first retried silently: docs/codex-parity.md#stream-retries-and-backoff).
    fake.enqueue(
      { fault: { kind: 'status', status: 429 } },
      { fault: { kind: 'status', status: 400, body: { error: { message: 'nope', type: 'invalid_request_error' } } } },
    );
    const child = spawnTiller(['exec', '--json', 'x'], env());
    expect(await child.exit).toBe(1);
    const out = jsonEvents(child.lines);
    expect(out.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'error', 'error', 'turn.failed']);
    expect(out[2]!.message).toMatch(/^Reconnecting\.\.\. 1\/5 \(/);
    expect((out[4]!.error as { message: string }).message).toBeTruthy();
  });

  it('command executions: declined with no sandbox and no one to ask, run in the sandbox by default and with --full-auto', async () => {
    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo from-tool' } } }, { text: 'done' });
    const declined = spawnTiller(['exec', '--json', '-s', 'danger-full-access', 'x'], env());
    expect(await declined.exit).toBe(0);
    const d = jsonEvents(declined.lines);
    expect(d.map((e) => e.type)).toEqual([
      'thread.started',
      'turn.started',
      'item.started',
      'item.completed',
      'item.completed',
      'turn.completed',
    ]);
    expect(d[2]).toMatchObject({ item: { id: 'item_0', type: 'command_execution', command: 'echo from-tool', status: 'in_progress' } });
    expect(d[3]).toMatchObject({ item: { id: 'item_0', type: 'command_execution', status: 'declined' } });
    expect(d[4]).toMatchObject({ item: { id: 'item_1', type: 'agent_message', text: 'done' } });

    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo from-tool' } } }, { text: 'done' });
    const ran = spawnTiller(['exec', '--json', '--full-auto', 'x'], env());
    expect(await ran.exit).toBe(0);
    const r = jsonEvents(ran.lines);
    expect(r[3]).toMatchObject({
      item: { type: 'command_execution', status: 'completed', exit_code: 0, aggregated_output: 'from-tool\n' },
    });

    fake.enqueue({ functionCall: { name: 'shell', arguments: { command: 'echo by-default' } } }, { text: 'done' });
    const byDefault = spawnTiller(['exec', '--json', 'x'], env());
    expect(await byDefault.exit).toBe(0);
    expect(jsonEvents(byDefault.lines)[3]).toMatchObject({
      item: { type: 'command_execution', status: 'completed', aggregated_output: 'by-default\n' },
    });
  });

  it('a missing --image: named on stderr, exit 2, before any request (issue 30)', async () => {
    const missing = join(env().TILLER_HOME!, 'gone.png');
    const child = spawnTiller(['exec', '--json', '--image', missing, 'what is this'], env());
    expect(await child.exit).toBe(2);
    expect(child.stderr()).toContain(`tiller exec: --image: no such file: ${missing}\n`);
    expect(child.lines).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    const text = join(env().TILLER_HOME!, 'notes.png');
    writeFileSync(text, 'just text');
    const notImage = spawnTiller(['exec', '-i', text, 'x'], env());
    expect(await notImage.exit).toBe(2);
    expect(notImage.stderr()).toContain(`tiller exec: --image: not an image file (PNG, JPEG, GIF or WebP): ${text}\n`);
    expect(fake.requests).toHaveLength(0);
  });

  it('an image the runtime refuses: a path-free warning saying why, as an error item before the answer; the prompt still runs', async () => {
    fake.enqueue({ text: 'answered anyway' });
    const child = spawnTiller(['exec', '--json', '--image', headerOnlyPng(), 'what is this'], env());
    expect(await child.exit).toBe(0);
    const out = jsonEvents(child.lines);
    expect(out.map((e) => e.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'item.completed', 'turn.completed']);
    expect(out[2]).toEqual({
      type: 'item.completed',
      item: { id: 'item_0', type: 'error', message: 'Tiller cannot attach the local image because it is not a valid image.' },
    });
    expect(out[3]).toMatchObject({ item: { id: 'item_1', type: 'agent_message', text: 'answered anyway' } });
    expect(JSON.stringify(fake.requests[0]!.body.input)).toContain('what is this');
  });

  it('SIGINT interrupts the turn and exits 130 without turn.completed', async () => {
    fake.enqueue({ fault: { kind: 'stall', afterEvents: 3 } });
    const child = spawnTiller(['exec', '--json', 'x'], env());
    await child.waitForLine((l) => l.includes('turn.started'));
    await fake.waitForRequests(1);
    child.proc.kill('SIGINT');
    expect(await child.exit).toBe(130);
    expect(jsonEvents(child.lines).map((e) => e.type)).toEqual(['thread.started', 'turn.started']);
  });
});

describe('tiller exec (text mode)', () => {
  it('prints the final answer on stdout and progress on stderr', async () => {
    fake.enqueue({ text: 'plain answer' });
    const child = spawnTiller(['exec', 'q'], env());
    expect(await child.exit).toBe(0);
    expect(child.lines).toEqual(['plain answer']);
    expect(child.stderr()).toContain('tiller: model');
  });

  it('reads the prompt from stdin with "-" or when piped', async () => {
    for (const args of [['exec', '-'], ['exec']]) {
      const child = spawnTiller(args, env());
      child.proc.stdin.end('prompt from stdin');
      expect(await child.exit).toBe(0);
    }
    const texts = fake.requests.map((r) => JSON.stringify(r.body.input));
    expect(texts.every((t) => t.includes('prompt from stdin'))).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('prints a warning (an image the runtime refuses) as `warning: …` on stderr, never on stdout', async () => {
    fake.enqueue({ text: 'plain answer' });
    const child = spawnTiller(['exec', '-i', headerOnlyPng(), 'q'], env());
    expect(await child.exit).toBe(0);
    expect(child.lines).toEqual(['plain answer']);
    expect(child.stderr()).toContain('warning: Tiller cannot attach the local image because it is not a valid image.\n');
  });

  it('a failed turn exits 1 with the error on stderr', async () => {
    fake.enqueue({ fault: { kind: 'status', status: 400 } });
    const child = spawnTiller(['exec', 'q'], env());
    expect(await child.exit).toBe(1);
    expect(child.lines).toEqual([]);
    expect(child.stderr()).toContain('turn failed');
  });
});
