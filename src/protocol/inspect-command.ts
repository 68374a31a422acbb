/**
 * `tiller inspect [--summary] [FILE]`: the pre-send inspector. Reads `UserInput[]` JSON (core shape)
 * from FILE or stdin and prints the Responses `input` Tiller would send: the user message, then the
 * developer message with notices, local media processed.
 */
import { readFile } from 'node:fs/promises';
import { readStdin } from '../process-io.js';
import { summarizeDataUrl } from './data-url.js';
import { fromUserInput, type ResponseItem } from './response-items.js';
import { parseUserInputs } from './schemas.js';

const USAGE = `Usage: tiller inspect [--summary] [FILE]

Reads UserInput[] JSON from FILE (or stdin when FILE is absent or "-") and prints the Responses
input Tiller would send for it, local images and audio processed.

Options:
  --summary   abbreviate data URLs to "data:<mime>;base64,… (N bytes)"
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
  let summary = false;
  let file: string | undefined;
  for (const arg of argv) {
    if (arg === '--summary') summary = true;
    else if (arg === '-h' || arg === '--help') {
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
  const items = await fromUserInput(parsed.value, { localImagePreparation: 'process' });
  // Data URLs make the output long; a reader that stops early (`| head`) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${JSON.stringify(summary ? summarize(items) : items, null, 2)}\n`);
  return 0;
}
