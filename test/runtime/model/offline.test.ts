import { afterEach, describe, expect, it, vi } from 'vitest';
import { createModelClient } from '../../../src/runtime/model/create.js';
import { createOfflineModelClient } from '../../../src/runtime/model/wires/offline/client.js';
import { offlineDelayFromEnv } from '../../../src/runtime/model/wires/offline/fetch.js';
import { isAbortedError } from '../../../src/runtime/model/errors.js';
import type { ModelEvent, ModelRequest, ModelStreamOptions } from '../../../src/runtime/model/types.js';
import type { ResponseItem } from '../../../src/protocol/response-items.js';
import type { TillerConfig } from '../../../src/runtime/config.js';

function offline(delayMs = 0) {
  return createOfflineModelClient({ idleTimeoutMs: 5000, delayMs });
}

function request(input: ResponseItem[]): ModelRequest {
  return {
    model: 'tiller-offline',
    input,
    tools: [],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: 'thread-1',
  };
}

const user = (...texts: string[]): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: texts.map((text) => ({ type: 'input_text', text })),
});
const assistant = (text: string): ResponseItem => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

async function run(
  client: ReturnType<typeof offline>,
  input: ResponseItem[],
  options?: ModelStreamOptions,
): Promise<{ text: string; events: ModelEvent[] }> {
  const events: ModelEvent[] = [];
  for await (const event of client.stream(request(input), new AbortController().signal, options)) events.push(event);
  const text = events.map((e) => (e.type === 'output_text_delta' ? e.delta : '')).join('');
  return { text, events };
}

/** A PNG header of the given size: signature + IHDR, enough for sniffing. */
function pngDataUrl(width: number, height: number): { url: string; bytes: number } {
  const bytes = Buffer.alloc(8 + 25 + 12);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt8(8, 24);
  bytes.writeUInt8(6, 25);
  return { url: `data:image/png;base64,${bytes.toString('base64')}`, bytes: bytes.length };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('embedded offline model through the openai SDK', () => {
  it('describes the text items with their character counts', async () => {
    const { text, events } = await run(offline(), [user('héllo wörld', 'second')]);
    expect(text).toContain('You sent a message with 2 content items');
    expect(text).toContain('text, 11 chars: “héllo wörld”');
    expect(text).toContain('text, 6 chars: “second”');
    expect(events.at(-1)).toMatchObject({ type: 'completed' });
  });

  it('describes an image with its MIME type, pixel size, bytes, detail and label', async () => {
    const png = pngDataUrl(640, 480);
    const { text } = await run(offline(), [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_text', text: '<image name=[Image #1]>' },
          { type: 'input_image', image_url: png.url, detail: 'high' },
          { type: 'input_text', text: '</image>' },
        ],
      },
    ]);
    expect(text).toContain(`image [Image #1], image/png, 640×480 px, ${png.bytes} bytes, detail high`);
    expect(text).toContain('2 content items');
  });

  it('lists the text elements passed beside the request: placeholder (or the text they cover) and byte range', async () => {
    const prompt = '[Image #1] é [Pasted Content 1200 chars]';
    const steer = 'and @src/main.ts too';
    const textElements = [
      {
        text: prompt,
        textElements: [{ byte_range: { start: 0, end: 10 }, placeholder: '[Image #1]' }, { byte_range: { start: 14, end: 41 } }],
      },
      { text: steer, textElements: [{ byte_range: { start: 4, end: 16 }, placeholder: null }] },
    ];
    const { text } = await run(offline(), [user(prompt), user(steer)], { textElements });
    expect(text).toContain(
      `text, ${[...prompt].length} chars: “${prompt}”; text elements: [Image #1] at bytes 0–10, [Pasted Content 1200 chars] at bytes 14–41`,
    );
    expect(text).toContain('You also said while I was working:');
    expect(text).toContain(`- text, 20 chars: “${steer}”; text elements: @src/main.ts at bytes 4–16`);
  });

  it('a text without elements gets no element list', async () => {
    const { text } = await run(offline(), [user('plain')], {
      textElements: [{ text: 'other', textElements: [{ byte_range: { start: 0, end: 5 } }] }],
    });
    expect(text).toContain('text, 5 chars: “plain”');
    expect(text).not.toContain('text elements');
  });

  it('abbreviates long text to 200 characters and the total', async () => {
    const long = 'a'.repeat(1500);
    const { text } = await run(offline(), [user(long)]);
    expect(text).toContain(`“${'a'.repeat(200)}… (1,500 chars)”`);
    expect(text).not.toContain('a'.repeat(201));
  });

  it('masks text shaped like an API key', async () => {
    const { text } = await run(offline(), [user('my key is sk-abcdefghijklmnopqrstuvwxyz0123')]);
    expect(text).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123');
    expect(text).toContain('sk-abcd…');
  });

  it('answers `run: <command>` with an exec_command call', async () => {
    const { events } = await run(offline(), [user('run: ls')]);
    const done = events.filter((e) => e.type === 'output_item_done');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ item: { type: 'function_call', name: 'exec_command' } });
    const item = (done[0] as { item: { arguments: string } }).item;
    expect(JSON.parse(item.arguments)).toEqual({ cmd: 'ls' });
  });

  it('summarizes a function_call_output with exit code, line count and first lines', async () => {
    const input: ResponseItem[] = [
      user('run: ls'),
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'exit code: 0\nduration: 0.0s\noutput:\nREADME.md\nsrc\ntest\n' },
    ];
    const { text, events } = await run(offline(), input);
    expect(text).toContain('`ls` finished with exit code 0 and printed 3 lines.');
    expect(text).toContain('README.md\nsrc\ntest');
    expect(events.some((e) => e.type === 'output_item_done' && e.item.type === 'function_call')).toBe(false);
  });

  it('says a declined command did not run', async () => {
    const input: ResponseItem[] = [
      user('run: rm -rf build'),
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":"rm -rf build"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'The user declined to run this command.' },
    ];
    const { text } = await run(offline(), input);
    expect(text).toContain('`rm -rf build` did not run: The user declined to run this command.');
  });

  it('reports input steered in after a tool call', async () => {
    const input: ResponseItem[] = [
      user('run: sleep 1'),
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":"sleep 1"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'exit code: 0\nduration: 1.0s\noutput:\n' },
      user('and then list files'),
    ];
    const { text } = await run(offline(), input);
    expect(text).toContain('You also said while I was working:\n\n- text, 19 chars: “and then list files”');
  });

  it('runs a command steered in after a tool call, after summarizing the previous one', async () => {
    const input: ResponseItem[] = [
      user('run: ls'),
      { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":"ls"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'exit code: 0\nduration: 0.0s\noutput:\na\n' },
      user('run: pwd'),
    ];
    const { text, events } = await run(offline(), input);
    expect(text).toContain('`ls` finished with exit code 0 and printed 1 line.');
    expect(text).toContain('Running `pwd` next.');
    const call = events.find((e) => e.type === 'output_item_done' && e.item.type === 'function_call');
    expect(call).toMatchObject({ item: { name: 'exec_command', arguments: '{"cmd":"pwd"}' } });
  });

  it("reads exec_command's answers: an exit code, or a session still running", async () => {
    const answer = (status: string, output: string): string =>
      `Chunk ID: ab12cd\nWall time: 0.0100 seconds\n${status}\nOriginal token count: 2\nOutput:\n${output}`;
    const called = (cmd: string, output: string): ResponseItem[] => [
      user(`run: ${cmd}`),
      { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: JSON.stringify({ cmd }) },
      { type: 'function_call_output', call_id: 'c1', output },
    ];
    const ended = await run(offline(), called('ls', answer('Process exited with code 0', 'a\nb\n')));
    expect(ended.text).toContain('`ls` finished with exit code 0 and printed 2 lines.');
    const running = await run(offline(), called('sleep 9', answer('Process running with session ID 4321', '')));
    expect(running.text).toContain('`sleep 9` is still running (session 4321) and printed 0 lines.');
  });

  it('describes audio with its MIME type and size', async () => {
    const audio = Buffer.from('RIFF0000WAVEfmt ').toString('base64');
    const { text } = await run(offline(), [
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '<audio name=[Audio #1]>' },
          { type: 'input_audio', audio_url: `data:audio/wav;base64,${audio}` },
          { type: 'input_text', text: '</audio>' },
        ],
      },
    ]);
    expect(text).toContain('1. audio [Audio #1], audio/wav, 16 bytes');
  });

  it('reports input steered in during the same turn (by turn id)', async () => {
    const client = offline();
    await run(client, [user('first')], { turnId: 'turn-1' });
    const { text } = await run(client, [user('first'), assistant('an answer'), user('also this')], { turnId: 'turn-1' });
    expect(text).toContain('You also said while I was working:');
    expect(text).toContain('“also this”');
    expect(text).not.toContain('You sent a message');
  });

  it('treats a new turn’s prompt as the message, not as steered input', async () => {
    const client = offline();
    await run(client, [user('first')], { turnId: 'turn-1' });
    const { text } = await run(client, [user('first'), assistant('an answer'), user('next question')], { turnId: 'turn-2' });
    expect(text).toContain('You sent a message with 1 content item:');
    expect(text).not.toContain('while I was working');
  });

  it('reports developer messages and injected skills', async () => {
    const input: ResponseItem[] = [
      user('hi'),
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Project uses pnpm.' }] },
      user('<skill>\n<name>deploy</name>\n<path>/home/u/.tiller/skills/deploy/SKILL.md</path>\nsecret steps\n</skill>'),
    ];
    const { text } = await run(offline(), input);
    expect(text).toContain('Developer messages (hook context and notices):\n\n- Project uses pnpm.');
    expect(text).toContain('Injected skills:\n\n- `deploy` from /home/u/.tiller/skills/deploy/SKILL.md');
    expect(text).not.toContain('secret steps');
  });

  it('notes the interrupt marker of an aborted turn', async () => {
    const input: ResponseItem[] = [
      user('first'),
      user('<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>'),
      user('again'),
    ];
    const { text } = await run(offline(), input);
    expect(text).toContain('The previous turn was interrupted.');
    expect(text).toContain('“first”');
  });

  it('stops streaming promptly when aborted', async () => {
    const client = offline(60_000);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    let caught: unknown = null;
    try {
      for await (const event of client.stream(request([user('hello there')]), controller.signal)) {
        events.push(event);
        if (event.type === 'output_item_added') controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(isAbortedError(caught)).toBe(true);
    expect(events.some((e) => e.type === 'output_text_delta')).toBe(false);
  });
});

describe('createModelClient', () => {
  const base: TillerConfig = {
    home: '/nonexistent',
    model: 'm',
    baseUrl: null,
    apiKey: null,
    approvalPolicy: 'on-request',
    sandboxMode: 'danger-full-access',
    sandboxWritableRoots: [],
    sandboxNetworkAccess: false,
    reasoningEffort: null,
    models: [],
    profile: null,
    mcpServers: {},
    vimModeDefault: false,
    vimEscapeSequence: null,
    modelSupportsImages: true,
    interruptMarker: true,
    requestMaxRetries: 4,
    streamMaxRetries: 5,
    streamIdleTimeoutMs: 5000,
    userPromptSubmitHooks: [],
    skillsDir: '/nonexistent/skills',
    warnings: [],
  };

  it('uses the offline model with no key and no base URL', async () => {
    vi.stubEnv('TILLER_OFFLINE_DELAY_MS', '0');
    const client = createModelClient(base);
    expect(client.label).toBe('offline');
    const { text } = await run(client as ReturnType<typeof offline>, [user('hello')]);
    expect(text).toContain('text, 5 chars: “hello”');
  });

  it('labels a base URL by its host and OpenAI as openai', () => {
    expect(createModelClient({ ...base, baseUrl: 'http://127.0.0.1:8080/v1' }).label).toBe('127.0.0.1:8080');
    expect(createModelClient({ ...base, apiKey: 'k' }).label).toBe('openai');
  });

  it('reads the offline pace from TILLER_OFFLINE_DELAY_MS', () => {
    expect(offlineDelayFromEnv({ TILLER_OFFLINE_DELAY_MS: '0' })).toBe(0);
    expect(offlineDelayFromEnv({ TILLER_OFFLINE_DELAY_MS: '80' })).toBe(80);
    expect(offlineDelayFromEnv({})).toBe(25);
    expect(offlineDelayFromEnv({ TILLER_OFFLINE_DELAY_MS: 'fast' })).toBe(25);
  });
});
