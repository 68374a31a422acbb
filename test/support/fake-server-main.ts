/**
 * The fake Responses server as a standalone process for manual (tmux) testing:
 *   npx tsx test/support/fake-server-main.ts [--port N] [--delay-ms N] [--models a,b,c | --models-404]
 * Prints its base URL, then answers every request with a streamed multi-paragraph markdown answer;
 * GET /models lists FAKE_MODELS (or the --models ids; --models-404 makes it a 404);
 * a `run: <command>` prompt gets a `shell` function call, and its output gets a short summary;
 * `tall: N` gets an answer taller than the terminal (a code block and a list of N lines, a table).
 */
import { FakeResponsesServer, type RecordedRequest, type ScriptedResponse } from './fake-responses-server.js';

function flag(name: string): number | undefined {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? Number(process.argv[index + 1]) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

const delayMs = flag('--delay-ms') ?? 30;

function lastUserText(input: any[]): string {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (item?.type === 'message' && item.role === 'user' && Array.isArray(item.content)) {
      return item.content
        .filter((c: any) => c?.type === 'input_text')
        .map((c: any) => String(c.text))
        .join('\n');
    }
  }
  return '';
}

function answer(request: RecordedRequest): ScriptedResponse {
  const input: any[] = Array.isArray(request.body?.input) ? request.body.input : [];
  const last = input[input.length - 1];
  if (last?.type === 'function_call_output') {
    const output = String(last.output ?? '');
    const lines = output.split('\n').filter((l) => l.length > 0);
    return { text: `The command finished with ${lines.length} lines of output.\n\nFirst line: \`${lines[0] ?? ''}\``, delayMs };
  }
  const text = lastUserText(input);
  const run = /^run:\s*(.+)$/s.exec(text.trim());
  if (run) return { functionCall: { name: 'shell', arguments: { command: run[1]!.trim() } }, delayMs };
  const tall = /^tall:\s*(\d+)$/.exec(text.trim());
  if (tall) return { delayMs, text: tallAnswer(Number(tall[1])) };
  return {
    delayMs,
    text: [
      '## An answer from the fake server',
      '',
      `Your last message had ${[...text].length} characters; the request carried ${input.length} input item${input.length === 1 ? '' : 's'} for \`${String(request.body?.model)}\`, reasoning effort ${String(request.body?.reasoning?.effort ?? 'none')}.`,
      '',
      'Here is a list:',
      '',
      '- the first point, with some `inline code`',
      '- the second point, **bold** and *italic*',
      '',
      '```ts',
      'const answer = 42;',
      '```',
      '',
      'And a closing paragraph long enough to wrap across more than one line in a normal terminal window, so that the renderer has something to do.',
    ].join('\n'),
  };
}

function tallAnswer(n: number): string {
  const numbers = Array.from({ length: n }, (_, i) => i + 1);
  return [
    `A code block of ${n} lines:`,
    '',
    '```ts',
    ...numbers.map((i) => `const line${i} = ${i} * 2; // line ${i}`),
    '```',
    '',
    '| line | double |',
    '|------|--------|',
    ...numbers.slice(0, 5).map((i) => `| ${i} | ${i * 2} |`),
    '',
    ...numbers.map((i) => `${i}. list item number ${i}`),
    '',
    'The end.',
  ].join('\n');
}

const server = await FakeResponsesServer.start({ port: flag('--port') });
server.respondWith(answer);
const modelsFlag = process.argv.indexOf('--models');
if (process.argv.includes('--models-404')) server.setModels({ status: 404 });
else if (modelsFlag >= 0) server.setModels((process.argv[modelsFlag + 1] ?? '').split(',').filter((id) => id !== ''));
process.stdout.write(`${server.baseUrl}\n`);
const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
