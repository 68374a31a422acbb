/**
 * `tiller inspect [--summary | --report] [FILE]`: the pre-send inspector. Reads `UserInput[]` JSON
 * (core shape) from FILE or stdin and prints the Responses `input` Tiller would send: the user
 * message, then the developer message with notices, local media processed. `--report` prints what
 * /inspect shows instead, from the same code (inspect-input.ts).
 */
import { readFile } from 'node:fs/promises';
import { readStdin } from '../process-io.js';
import { summarizeDataUrl } from '../protocol/data-url.js';
import { inputReportLines } from '../protocol/input-report.js';
import type { ResponseItem } from '../protocol/response-items.js';
import { parseUserInputs } from '../protocol/schemas.js';
import { inspectUserInput, prepareInput } from './inspect-input.js';

const USAGE = `Usage: tiller inspect [--summary | --report] [FILE]

Reads UserInput[] JSON from FILE (or stdin when FILE is absent or "-") and prints the Responses
input Tiller would send for it, local images and audio processed.

Options:
  --summary   abbreviate data URLs to "data:<mime>;base64,… (N bytes)"
  --report    print what /inspect shows: each part (pixels after resizing, bytes), the skills
              injected, the hooks that run first, the text against the limit
  -h, --help  show this help
`;

function summarize(items: ResponseItem[]): ResponseItem[] {
  return items.map((item) => {
    if (item.type !== 'message') return item;
    return {
      ...item,
      content: item.content.map((c) => {
        if (c.type === 'input_image' && 'image_url' in c) return { ...c, image_url: summarizeDataUrl(c.image_url) };
        if (c.type === 'input_audio') return { ...c, audio_url: summarizeDataUrl(c.audio_url) };
        return c;
      }),
    };
  });
}

export async function main(argv: string[]): Promise<number> {
  let mode: 'full' | 'summary' | 'report' = 'full';
  let file: string | undefined;
  for (const arg of argv) {
    if (arg === '--summary' || arg === '--report') {
      if (mode !== 'full') {
        process.stderr.write('tiller inspect: --summary and --report cannot be combined\n');
        return 2;
      }
      mode = arg === '--summary' ? 'summary' : 'report';
    } else if (arg === '-h' || arg === '--help') {
      process.stdout.write(USAGE);
      return 0;
    } else if (arg.startsWith('-') && arg !== '-') {
      process.stderr.write(`tiller inspect: unknown option '${arg}'. Try 'tiller inspect --help'.\n`);
      return 2;
    } else if (file !== undefined) {
      process.stderr.write('tiller inspect: expected at most one FILE\n');
      return 2;
    } else file = arg;
  }

  let text: string;
  try {
    text = file === undefined || file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    process.stderr.write(`tiller inspect: cannot read ${file ?? 'stdin'} (${code})\n`);
    return 1;
  }

  const parsed = parseUserInputs(text);
  if (!parsed.ok) {
    process.stderr.write(`tiller inspect: ${parsed.error.message}\n`);
    return 2;
  }
  let output: string;
  if (mode === 'report') {
    // Skills and hooks are the config's; the JSON modes need none.
    const config = (await import('./config.js')).loadConfigOrReport();
    if (config === null) return 2;
    const { report } = await inspectUserInput(parsed.value, { skillsDir: config.skillsDir, hooks: config.userPromptSubmitHooks });
    output = inputReportLines(report).join('\n');
  } else {
    const items = await prepareInput(parsed.value);
    output = JSON.stringify(mode === 'summary' ? summarize(items) : items, null, 2);
  }
  // Data URLs make the output long; a reader that stops early (`| head`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${output}\n`);
  return 0;
}
