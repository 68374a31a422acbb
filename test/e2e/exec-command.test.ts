/** exec_command and write_stdin in the TUI: one command cell with the script, its live output, and its duration. */
import { describe, expect, it } from 'vitest';
import { sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

type Body = { input: Array<{ type: string; output?: string }> };
const lastOutput = (body: Body): string => body.input.filter((i) => i.type === 'function_call_output').at(-1)?.output ?? '';

describe('exec_command in the TUI', { timeout: 60_000 }, () => {
  it('an interactive command answered through write_stdin shows as one cell with the script, output and duration', async () => {
    const session = await openSession({
      cols: 100,
      rows: 30,
      args: ['-a', 'never', '-s', 'danger-full-access'],
      env: { SHELL: '/bin/sh' },
    });
    const { server, pty } = session;
    let step = 0;
    server.respondWith((request) => {
      step++;
      if (step === 1) {
        return {
          functionCall: {
            name: 'exec_command',
            arguments: { cmd: 'printf "who? "; read -r n; echo "hi-$n"', tty: true, yield_time_ms: 500 },
          },
        };
      }
      if (step === 2) {
        const id = Number(/session ID (\d+)/.exec(lastOutput(request.body as Body))?.[1]);
        return { functionCall: { name: 'write_stdin', arguments: { session_id: id, chars: 'ann\n', yield_time_ms: 3000 } } };
      }
      return { text: 'Greeted ann.' };
    });
    await typeSlowly(pty, 'greet');
    pty.press('enter');
    await waitForRequests(session, 3);
    await pty.waitFor('Greeted ann.');
    const screen = pty.scrollback();
    expect(screen).toContain('$ printf "who? "; read -r n; echo "hi-$n"');
    expect(screen).not.toContain('-lc');
    expect(screen).toContain('hi-ann');
    expect(screen).toMatch(/└ \d+(ms|\.\ds)/);
    expect(screen.match(/\$ printf/g)).toHaveLength(1);
  });
});
