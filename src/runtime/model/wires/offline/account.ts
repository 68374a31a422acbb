/**
 * The embedded offline model's "thinking": from a Responses request's input it decides what to
 * answer. It either calls exec_command (`run: <command>`) or writes a plain markdown account of
 * what it received since its last answer: the user's content items, steered input, developer
 * messages (hook context, notices), injected skills, and tool output.
 */
import { isContextFragment } from '../../../../protocol/context-fragments.js';
import { type ContentItem, type ResponseItem, toolOutputText } from '../../../../protocol/response-items.js';
import type { TextElement } from '../../../../protocol/user-input.js';
import type { InputTextElements } from '../../types.js';
import { PROJECT_DOC_PREFIX } from '../../../core/project-instructions.js';
import { mediaFacts } from './media.js';

/** What to stream: a message, an exec_command call, or both (a summary, then the next steered command). */
export interface OfflineReply {
  text: string | null;
  command: string | null;
}

export interface OfflineRequestView {
  input: ResponseItem[];
  /** True when the previous request came from the same turn, so new user messages were steered in. */
  sameTurnAsPrevious?: boolean;
  /** Text elements of the unanswered user inputs, passed beside the request by the client. */
  textElements?: InputTextElements[];
}

/** The elements of a user text, found by the text itself (the Responses input keeps texts as sent). */
type ElementsOf = (text: string) => TextElement[];

const PREVIEW_CHARS = 200;
const RUN_PREFIX = /^run:\s*/;

const codePoints = (text: string): number => [...text].length;
const count = (n: number): string => n.toLocaleString('en-US');

/** The user's text back, abbreviated, on one line, with anything shaped like an API key masked. */
export function preview(text: string): string {
  const masked = text.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{12,}/g, '$1…');
  const chars = [...masked];
  const shown = chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS).join('')}… (${count(codePoints(text))} chars)` : masked;
  return shown.replace(/\s*\n\s*/g, ' ⏎ ');
}

function textOf(content: ContentItem[]): string {
  return content
    .filter((c): c is Extract<ContentItem, { type: 'input_text' | 'output_text' }> => c.type === 'input_text' || c.type === 'output_text')
    .map((c) => c.text)
    .join('\n');
}

type Message = Extract<ResponseItem, { type: 'message' }>;

/** Context Tiller adds (the brief, permissions, environment, AGENTS.md) is not something the user said. */
const isContext = (m: Message): boolean => {
  const text = textOf(m.content);
  return isContextFragment(text) || text.startsWith(PROJECT_DOC_PREFIX);
};
const isUser = (item: ResponseItem): item is Message => item.type === 'message' && item.role === 'user' && !isContext(item);
const isSkill = (m: Message): boolean => textOf(m.content).trimStart().startsWith('<skill>');
const isAbortMarker = (m: Message): boolean => textOf(m.content).trimStart().startsWith('<turn_aborted>');

export function decideReply(request: OfflineRequestView): OfflineReply {
  const { input } = request;
  const known = request.textElements ?? [];
  const elementsOf: ElementsOf = (text) => known.find((entry) => entry.text === text)?.textElements ?? [];
  let lastOwn = -1;
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if ((item.type === 'message' && item.role === 'assistant') || item.type === 'function_call') {
      lastOwn = i;
      break;
    }
  }
  const fresh = input.slice(lastOwn + 1);
  const toolOutputs = fresh.filter((i): i is Extract<ResponseItem, { type: 'function_call_output' }> => i.type === 'function_call_output');
  const userMessages = fresh.filter(isUser).filter((m) => !isSkill(m) && !isAbortMarker(m));
  const skills = fresh.filter(isUser).filter(isSkill);
  const developer = fresh.filter(
    (i): i is Message => i.type === 'message' && (i.role === 'developer' || i.role === 'system') && !isContext(i),
  );
  const interrupted = fresh.filter(isUser).some(isAbortMarker);

  // Input that arrives after a tool call, or in the same turn as the last request, was steered in.
  const steeredAll = toolOutputs.length > 0 || request.sameTurnAsPrevious === true;
  const main = steeredAll ? null : (userMessages[0] ?? null);
  const steered = steeredAll ? userMessages : userMessages.slice(1);

  // `run: <command>` as the newest user input calls the shell; after a tool call it was steered in,
  // so the previous command's summary is streamed first.
  const latest = userMessages.at(-1);
  const latestText = latest ? textOf(latest.content).trim() : '';
  const run = RUN_PREFIX.exec(latestText);
  const command = run && fresh.indexOf(latest!) > lastIndexOf(fresh, 'function_call_output') ? latestText.slice(run[0].length).trim() : '';
  if (command.length > 0 && toolOutputs.length === 0) return { text: null, command };

  const sections: string[] = [];
  if (interrupted) sections.push('_The previous turn was interrupted._');
  for (const output of toolOutputs) sections.push(describeToolOutput(output, input));
  if (main) sections.push(describeMessage(main, elementsOf));
  if (steered.length > 0) {
    sections.push(['You also said while I was working:', '', ...steered.map((m) => `- ${summarizeMessage(m, elementsOf)}`)].join('\n'));
  }
  if (developer.length > 0) {
    sections.push(
      ['Developer messages (hook context and notices):', '', ...developer.map((m) => `- ${preview(textOf(m.content))}`)].join('\n'),
    );
  }
  if (skills.length > 0) sections.push(['Injected skills:', '', ...skills.map(describeSkill)].join('\n'));
  if (sections.length === 0) sections.push('I received nothing new since my last answer.');
  if (command.length > 0) sections.push(`Running \`${preview(command)}\` next.`);
  else if (toolOutputs.length === 0)
    sections.push('_I am the offline model: I describe what I receive. Send `run: <command>` to see a tool call._');
  return { text: sections.join('\n\n'), command: command.length > 0 ? command : null };
}

function lastIndexOf(items: ResponseItem[], type: ResponseItem['type']): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.type === type) return i;
  return -1;
}

function describeMessage(message: Message, elementsOf: ElementsOf): string {
  const parts = contentParts(message.content, elementsOf);
  const head = `You sent a message with ${parts.length} content item${parts.length === 1 ? '' : 's'}:`;
  return [head, '', ...parts.map((p, i) => `${i + 1}. ${p}`)].join('\n');
}

function summarizeMessage(message: Message, elementsOf: ElementsOf): string {
  const parts = contentParts(message.content, elementsOf);
  return parts.length === 1 ? parts[0]! : parts.join('; ');
}

/** One line per content item; `<image name=…>` / `<audio name=…>` tags label the item they wrap. */
function contentParts(content: ContentItem[], elementsOf: ElementsOf): string[] {
  const parts: string[] = [];
  let label: string | null = null;
  for (const item of content) {
    switch (item.type) {
      case 'input_text':
      case 'output_text': {
        const open = /^<(image|audio) name=(\[[^\]]+\])>$/.exec(item.text);
        if (open) {
          label = open[2]!;
          break;
        }
        if (/^<\/(image|audio)>$/.test(item.text)) {
          label = null;
          break;
        }
        const elements = item.type === 'input_text' ? elementsOf(item.text) : [];
        const described = elements.length > 0 ? `; ${describeTextElements(item.text, elements)}` : '';
        parts.push(`text, ${count(codePoints(item.text))} chars: “${preview(item.text)}”${described}`);
        break;
      }
      case 'input_image':
        parts.push('image_url' in item ? describeImage(item.image_url, item.detail, label) : `image, an uploaded file (${item.file_id})`);
        break;
      case 'input_file':
        parts.push(`file, an uploaded file (${item.file_id})`);
        break;
      case 'input_audio':
        parts.push(describeAudio(item.audio_url, label));
        break;
    }
  }
  return parts;
}

/** `text elements: [Image #1] at bytes 0–10, …`: each element's shown text and UTF-8 byte range. */
export function describeTextElements(text: string, elements: readonly TextElement[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const shown = elements.map(({ byte_range: range, placeholder }) => {
    const label = placeholder ?? bytes.subarray(range.start, range.end).toString('utf8');
    return `${preview(label)} at bytes ${range.start}–${range.end}`;
  });
  return `text elements: ${shown.join(', ')}`;
}

function describeImage(url: string, detail: string, label: string | null): string {
  const facts = mediaFacts(url);
  const name = label ? `image ${label}` : 'image';
  if (facts.remote) return `${name}, remote (${hostOf(url)}), detail ${detail}`;
  const size = facts.width !== null && facts.height !== null ? `, ${facts.width}×${facts.height} px` : '';
  return `${name}, ${facts.mime ?? 'unknown type'}${size}, ${count(facts.bytes ?? 0)} bytes, detail ${detail}`;
}

function describeAudio(url: string, label: string | null): string {
  const facts = mediaFacts(url);
  const name = label ? `audio ${label}` : 'audio';
  if (facts.remote) return `${name}, remote (${hostOf(url)})`;
  return `${name}, ${facts.mime ?? 'unknown type'}, ${count(facts.bytes ?? 0)} bytes`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || 'unknown host';
  } catch {
    return 'unreadable URL';
  }
}

function describeSkill(message: Message): string {
  const text = textOf(message.content);
  const name = /<name>([^<]*)<\/name>/.exec(text)?.[1] ?? 'unnamed';
  const path = /<path>([^<]*)<\/path>/.exec(text)?.[1];
  return `- \`${name}\`${path ? ` from ${path}` : ''}, ${count(codePoints(text))} chars`;
}

function describeToolOutput(output: Extract<ResponseItem, { type: 'function_call_output' }>, input: ResponseItem[]): string {
  const call = input.find((i) => i.type === 'function_call' && i.call_id === output.call_id);
  let command: string | null = null;
  if (call?.type === 'function_call') {
    try {
      // exec_command's `cmd`, or the `command` of a shell call in an older history.
      const args = JSON.parse(call.arguments) as { cmd?: unknown; command?: unknown };
      const given = args.cmd ?? args.command;
      command = typeof given === 'string' ? given : null;
    } catch {
      command = null;
    }
  }
  const text = toolOutputText(output.output);
  const what = command ? `\`${preview(command)}\`` : 'The command';
  // exec_command answers `…Process exited with code N` (or `…running with session ID N`) then `Output:`;
  // the shell tool of older histories `exit code: N`, `duration: …`, `output:`.
  const marker = /\n[Oo]utput:\n/.exec(text);
  if (marker === null) return `${what} did not run: ${preview(text)}`;
  const head = text.slice(0, marker.index);
  const lines = text.slice(marker.index + marker[0].length).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const exit = /Process exited with code (\S+)/.exec(head)?.[1] ?? /^exit code: (\S+)/.exec(head)?.[1];
  const running = /Process running with session ID (\d+)/.exec(head)?.[1];
  const outcome =
    exit !== undefined
      ? `finished with exit code ${exit}`
      : running !== undefined
        ? `is still running (session ${running})`
        : `ended: ${preview(head.split('\n')[0] ?? '')}`;
  const summary = `${what} ${outcome} and printed ${count(lines.length)} line${lines.length === 1 ? '' : 's'}.`;
  if (lines.length === 0) return summary;
  const first = lines.slice(0, 5).map((l) => l.slice(0, 200));
  return [summary, '', 'First lines:', '', '```', ...first, '```'].join('\n');
}
