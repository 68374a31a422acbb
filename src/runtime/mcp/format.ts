/**
 * What an MCP tool's result becomes: the string the model reads back (function_call_output is a
 * string: text as it is, a `[image: mime, N bytes]` note for binary content, structured content as
 * JSON, errors marked, capped as shell output is), and the item's copy for the client (text capped,
 * large binary data left out). Also the one-line summary an approval prompt shows.
 */
import type { McpToolCallResult } from '../../protocol/api.js';
import { redactSecrets } from '../../protocol/redact.js';
import { capText, DEFAULT_HEAD_BYTES, DEFAULT_TAIL_BYTES } from '../commands/output-cap.js';

/** The result as the SDK parsed it (MCP's CallToolResult), loosely typed: servers vary. */
export interface RawToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  /** Protocol 2024-10-07 servers answer `{ toolResult }` instead. */
  toolResult?: unknown;
}

type Block = { type?: unknown; [key: string]: unknown };

/** Binary data kept in the item up to this (base64 characters); past it `data` is '' and `tillerOmittedBytes` says how much there was. */
export const ITEM_BINARY_LIMIT = 256 * 1024;

const asBlocks = (content: unknown): Block[] =>
  Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];

/** Bytes a base64 string decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function binaryNote(kind: string, mime: unknown, data: unknown, extra = ''): string {
  const bytes = typeof data === 'string' ? base64Bytes(data) : 0;
  return `[${kind}: ${typeof mime === 'string' && mime ? mime : 'unknown type'}, ${bytes} bytes${extra}]`;
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : '';
    case 'image':
      return binaryNote('image', block.mimeType, block.data);
    case 'audio':
      return binaryNote('audio', block.mimeType, block.data);
    case 'resource_link':
      return `[resource link: ${typeof block.name === 'string' ? `${block.name} ` : ''}<${String(block.uri ?? '')}>]`;
    case 'resource': {
      const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Block;
      const uri = String(resource.uri ?? '');
      if (typeof resource.text === 'string') return `<resource uri="${uri}">\n${resource.text}\n</resource>`;
      return binaryNote('resource', resource.mimeType, resource.blob, `, ${uri}`);
    }
    default:
      return `[${typeof block.type === 'string' ? block.type : 'unknown'} content]`;
  }
}

/** Whether a text block already says what the structured content says (servers are asked to send both). */
function mirrored(blocks: readonly Block[], structured: unknown): boolean {
  const wanted = JSON.stringify(structured);
  return blocks.some((block) => {
    if (block.type !== 'text' || typeof block.text !== 'string') return false;
    try {
      return JSON.stringify(JSON.parse(block.text)) === wanted;
    } catch {
      return false;
    }
  });
}

/** The first text of an error result, for the item's `error.message`. */
export function errorTextOf(result: RawToolResult): string {
  const text = asBlocks(result.content).find((b) => b.type === 'text' && typeof b.text === 'string');
  const message = typeof text?.text === 'string' ? text.text.trim().split('\n')[0]!.slice(0, 300) : '';
  return message || 'the tool reported an error';
}

/** The string the model reads back. */
export function formatResultForModel(result: RawToolResult, headBytes = DEFAULT_HEAD_BYTES, tailBytes = DEFAULT_TAIL_BYTES): string {
  const parts: string[] = [];
  if (result.toolResult !== undefined && result.content === undefined) parts.push(JSON.stringify(result.toolResult));
  const blocks = asBlocks(result.content);
  for (const block of blocks) parts.push(blockText(block));
  const structured = result.structuredContent;
  if (structured !== undefined && structured !== null && !mirrored(blocks, structured))
    parts.push(`structured content: ${JSON.stringify(structured)}`);
  let text = parts.join('\n');
  if (text.length === 0) text = '(no content)';
  if (result.isError === true) text = `MCP tool error:\n${text}`;
  return capText(text, headBytes, tailBytes);
}

/** The item's copy of the result: text capped per block, binary data over ITEM_BINARY_LIMIT left out. */
export function resultForItem(result: RawToolResult): McpToolCallResult {
  const content = asBlocks(result.content).map((block): unknown => {
    if (block.type === 'text' && typeof block.text === 'string') return { ...block, text: capText(block.text) };
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && block.data.length > ITEM_BINARY_LIMIT) {
      return { ...block, data: '', tillerOmittedBytes: base64Bytes(block.data) };
    }
    if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
      const resource = block.resource as Block;
      if (typeof resource.text === 'string') return { ...block, resource: { ...resource, text: capText(resource.text) } };
      if (typeof resource.blob === 'string' && resource.blob.length > ITEM_BINARY_LIMIT) {
        return { ...block, resource: { ...resource, blob: '', tillerOmittedBytes: base64Bytes(resource.blob) } };
      }
    }
    return block;
  });
  if (result.toolResult !== undefined && result.content === undefined)
    content.push({ type: 'text', text: capText(JSON.stringify(result.toolResult)) });
  return { content, structuredContent: result.structuredContent ?? null };
}

/** A reason on one line, at most 400 characters, secrets taken out (a server's stderr may print its token). */
export function oneLine(text: string): string {
  const line = redactSecrets(text).replace(/\s+/g, ' ').trim();
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}

const SUMMARY_ARGS_CHARS = 400;

/** `server.tool({"path":"/x"})`, the arguments cut to 400 characters: the approval prompt's `command`. */
export function callSummary(server: string, tool: string, args: unknown): string {
  let json = '';
  if (args !== undefined && !(typeof args === 'object' && args !== null && !Array.isArray(args) && Object.keys(args).length === 0)) {
    json = JSON.stringify(args) ?? '';
  }
  if (json.length > SUMMARY_ARGS_CHARS) json = `${json.slice(0, SUMMARY_ARGS_CHARS)}…`;
  return `${server}.${tool}(${json})`;
}
