/**
 * An exec_command session, in a pseudo-terminal and continued through write_stdin, gets nothing a
 * command of the shell tool would not (issue 32): through the real `tiller exec` and a real bwrap,
 * unix sockets outside stay closed, descriptors Tiller inherited are closed, secrets are not in the
 * environment, and Tiller's home stays read-only.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer } from '../support/fake-responses-server.js';
import { tempDir } from './support/harness.js';
import { execHoldingFd200, fakeServerEnv } from './support/spawn.js';

let fake: FakeResponsesServer;
let ws: string;
let server: Server;
let connections = 0;
let socketPath: string;
beforeEach(async () => {
  fake = await FakeResponsesServer.start();
  ws = realpathSync(tempDir('tiller-exec-ws-'));
  connections = 0;
  socketPath = join(tempDir('tiller-exec-sock-'), 'daemon.sock');
  server = createServer((socket) => {
    connections++;
    socket.end('obeyed\n');
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});
afterEach(async () => {
  await fake.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Body = { input: Array<{ type: string; output?: string }> };
const lastOutput = (body: Body): string => body.input.filter((i) => i.type === 'function_call_output').at(-1)?.output ?? '';

/**
 * One `tiller exec --json` turn: exec_command opens an interactive shell loop in a pty, then
 * write_stdin types `script` into it. Tiller runs with descriptor 200 open on `outside`.
 */
async function typedIntoSession(script: string, outside: string, flags: string[], env = fakeServerEnv(fake)): Promise<string> {
  let step = 0;
  fake.respondWith((request) => {
    step++;
    if (step === 1) {
      return {
        functionCall: {
          name: 'exec_command',
          arguments: { cmd: 'while IFS= read -r line; do eval "$line"; done', tty: true, yield_time_ms: 500 },
        },
      };
    }
    if (step === 2) {
      const id = Number(/session ID (\d+)/.exec(lastOutput(request.body as Body))?.[1]);
      return { functionCall: { name: 'write_stdin', arguments: { session_id: id, chars: `${script}\n`, yield_time_ms: 5000 } } };
    }
    return { text: 'done' };
  });
  const { code, events } = await execHoldingFd200(outside, [...flags, 'go'], ws, env);
  expect(code).toBe(0);
  const toModel = lastOutput(fake.requests[2]!.body as Body);
  expect(events.some((e) => e.type === 'turn.completed')).toBe(true);
  return toModel;
}

const connect = (path: string): string =>
  `node -e 'const c=require("net").connect(${JSON.stringify(path)});c.on("data",d=>process.stdout.write("got "+d));c.on("error",e=>console.log("refused "+e.code))'`;

describe('a write_stdin session inherits nothing the sandbox would not give a command', () => {
  for (const [name, flags] of [
    ['read-only', ['-s', 'read-only', '-a', 'never']],
    ['workspace-write', ['--full-auto']],
  ] as const) {
    it(`${name}: no unix socket outside, no inherited descriptor, no secret, no write to Tiller's home`, async () => {
      const outside = join(tempDir('tiller-exec-out-'), 'target');
      writeFileSync(outside, '');
      const env = fakeServerEnv(fake, {
        OPENAI_API_KEY: 'sk-should-not-leak',
        GITHUB_TOKEN: 'ghp-should-not-leak',
        PLAIN_SETTING: 'visible',
      });
      const script = [
        connect(socketPath),
        "bash -c 'echo x >&200' 2>&1 | sed 's/^.*: //'",
        'env | grep -c -e sk-should-not-leak -e ghp-should-not-leak',
        'echo PLAIN=$PLAIN_SETTING',
        // Tiller's own home is read-only in every sandbox, even under a writable /tmp.
        `touch ${env.TILLER_HOME}/escaped 2>&1 | sed 's/^.*: //'`,
      ].join('; ');
      const output = await typedIntoSession(script, outside, [...flags], env);
      expect(output).toContain('refused EPERM');
      expect(output).not.toContain('obeyed');
      expect(connections).toBe(0);
      expect(output).toContain('Bad file descriptor');
      expect(readFileSync(outside, 'utf8')).toBe('');
      expect(output).toMatch(/\r\n0\r\n/);
      expect(output).toContain('PLAIN=visible');
      expect(output).toMatch(/Read-only file system|Permission denied/);
      expect(existsSync(join(env.TILLER_HOME!, 'escaped'))).toBe(false);
    });
  }
});
