/** `tiller exec --json` with exec_command and write_stdin: Codex's one command_execution item per exec_command. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { fakeServerEnv, jsonEvents, spawnTiller } from './support/spawn.js';

let fake: FakeResponsesServer;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
});
afterEach(async () => {
  await fake.close();
});

type Body = { input: Array<{ type: string; output?: string }> };
const lastOutput = (body: Body): string => body.input.filter((i) => i.type === 'function_call_output').at(-1)?.output ?? '';

it('exec_command then write_stdin make one command_execution item, its command shown as Codex shows it', async () => {
  let step = 0;
  fake.respondWith((request) => {
    step++;
    if (step === 1)
      return { functionCall: { name: 'exec_command', arguments: { cmd: 'read -r a; echo "got $a"', tty: true, yield_time_ms: 400 } } };
    if (step === 2) {
      const id = Number(/session ID (\d+)/.exec(lastOutput(request.body as Body))?.[1]);
      return { functionCall: { name: 'write_stdin', arguments: { session_id: id, chars: 'it\n', yield_time_ms: 3000 } } };
    }
    return { text: 'done' };
  });
  const child = spawnTiller(
    ['exec', '--json', '--skip-git-repo-check', '-s', 'read-only', '-a', 'never', 'go'],
    fakeServerEnv(fake),
    tempDir(),
  );
  expect(await child.exit).toBe(0);
  const events = jsonEvents(child.lines);
  const items = events.filter((e) => (e.item as { type?: string } | undefined)?.type === 'command_execution');
  expect(items.map((e) => e.type)).toEqual(['item.started', 'item.completed']);
  expect(items[1]!.item).toMatchObject({
    command: `/bin/sh -lc 'read -r a; echo "got $a"'`,
    exit_code: 0,
    status: 'completed',
    aggregated_output: expect.stringContaining('got it'),
  });
  expect(lastOutput(fake.requests[2]!.body as Body)).toMatch(/Process exited with code 0\n/);
});
