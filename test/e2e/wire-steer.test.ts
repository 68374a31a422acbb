/**
 * Steering on the chat and Anthropic wires, through the real bin in a pseudo-terminal: a steer typed
 * while the model's command runs waits on screen, then goes in the request that follows the tool
 * call, on the same wire. A steer lands between sampling requests, so no wire needs anything for it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAnthropicServer } from '../support/fake-anthropic-server.js';
import { FakeChatServer } from '../support/fake-chat-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { tempDir } from '../runtime/support/config.js';
import { typeSlowly } from './helpers.js';

const SLOW = 'sleep 2; echo slow-done';
let pty: TillerPty | null = null;
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  pty?.kill();
  await close?.();
  pty = null;
  close = null;
});

/** A Tiller home whose config.toml points provider `x` at the fake, on the given wire. */
function home(wire: string, baseUrl: string, extra = ''): string {
  const dir = tempDir('tiller-wire-steer-');
  writeFileSync(
    join(dir, 'config.toml'),
    `model_provider = "x"\n[model_providers.x]\nname = "X"\nbase_url = "${baseUrl}"\nwire_api = "${wire}"\n${extra}`,
  );
  return dir;
}

async function steerDuringTool(tillerHome: string, model: string): Promise<void> {
  pty = startTiller({
    args: ['-m', model, '-a', 'never', '-s', 'danger-full-access'],
    env: { TILLER_HOME: tillerHome, TILLER_TEST_KEY: 'k' },
  });
  await pty.waitFor('Ask Tiller to do anything');
  await typeSlowly(pty, 'run it');
  pty.press('enter');
  await pty.waitFor(SLOW);
  await typeSlowly(pty, 'also X');
  pty.press('enter');
  const pending = await pty.waitFor('• Messages to be submitted after next tool call');
  expect(pending).toContain('  ↳ also X');
  await pty.waitFor((s) => s.includes('Steered.') && !s.includes('Messages to be submitted'));
}

describe('a steer during a tool call', { timeout: 60_000 }, () => {
  it('on the chat wire goes in the request after the tool output', async () => {
    const fake = await FakeChatServer.start();
    close = () => fake.close();
    fake.enqueue({ toolCalls: [{ name: 'exec_command', arguments: { cmd: SLOW }, id: 'call_slow' }] }, { text: 'Steered.' });
    await steerDuringTool(home('chat', fake.baseUrl), 'gpt-5.5');
    const messages = fake.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const tool = messages.findIndex((m) => m.role === 'tool');
    expect(JSON.stringify(messages[tool])).toContain('slow-done');
    expect(JSON.stringify(messages.slice(tool + 1))).toContain('also X');
  });

  it('on the Anthropic wire goes in the request after the tool_result', async () => {
    const fake = await FakeAnthropicServer.start();
    close = () => fake.close();
    fake.enqueue({ toolUses: [{ name: 'exec_command', input: { cmd: SLOW }, id: 'toolu_slow' }] }, { text: 'Steered.' });
    await steerDuringTool(home('anthropic', fake.baseUrl, 'env_key = "TILLER_TEST_KEY"\n'), 'claude-sonnet-4-5');
    const messages = fake.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const last = JSON.stringify(messages.at(-1));
    expect(JSON.stringify(messages)).toContain('slow-done');
    expect(last).toContain('also X');
  });
});
