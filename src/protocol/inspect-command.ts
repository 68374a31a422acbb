/**
 * `tiller inspect [--summary] [FILE]`: the pre-send inspector. Reads `UserInput[]` JSON (core shape)
 * from FILE or stdin and prints the Responses `input` Tiller would send: the user message, then the
 * developer message with notices, local media processed.
 */
import { readFile } from 'node:fs/promises';
import { fromUserInput, type ResponseItem } from './response-items.js';
import { parseUserInputs } from './schemas.js';

const USAGE = `Usage: tiller inspect [--summary] [FILE]

Reads UserInput[] JSON from FILE (or stdin when FILE is absent or "-") and prints the Responses
input Tiller would send for it, local images and audio processed.

Options:
  --summary   abbreviate data URLs to "data:<mime>;base64,… (N bytes)"
  -h, --help  show this help
`;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

const DATA_URL = /^data:([^;,]*)(;base64)?,(.*)$/s;

/** `data:image/png;base64,… (N bytes)`, N the decoded size; other strings unchanged. */
export function summarizeDataUrl(url: string): string {
  const match = DATA_URL.exec(url);
  if (!match) return url;
  const [, mime = '', base64 = '', payload = ''] = match;
  const bytes = base64 ? Buffer.byteLength(payload, 'base64') : Buffer.byteLength(decodeURIComponentSafe(payload));
  return `data:${mime}${base64},… (${bytes} bytes)`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

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
