/**
 * Codex's token budget for what a command printed (its `formatted_truncate_text` with a token
 * policy): tokens are estimated as 4 UTF-8 bytes each; over budget, the head and the tail are kept
 * (half the budget's bytes each, on character boundaries) around `…N tokens truncated…`, and a
 * header says how much there was.
 */
const BYTES_PER_TOKEN = 4;

/** Codex's estimate: ceil(bytes / 4). */
export function approxTokenCount(text: string): number {
  return tokensForBytes(Buffer.byteLength(text));
}

const tokensForBytes = (bytes: number): number => Math.ceil(bytes / BYTES_PER_TOKEN);

/** Rust's `str::lines().count()`: a final line break ends the last line, it does not start one. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

export function formattedTruncateText(content: string, maxTokens: number): string {
  const budget = maxTokens * BYTES_PER_TOKEN;
  const bytes = Buffer.byteLength(content);
  if (bytes <= budget) return content;
  const header = `Warning: truncated output (original token count: ${tokensForBytes(bytes)})\nTotal output lines: ${lineCount(content)}\n\n`;
  return header + truncateMiddle(content, bytes, budget);
}

function truncateMiddle(content: string, bytes: number, budget: number): string {
  const marker = `…${tokensForBytes(bytes - budget)} tokens truncated…`;
  if (budget === 0) return `…${tokensForBytes(bytes)} tokens truncated…`;
  const left = Math.floor(budget / 2);
  const tailStart = bytes - (budget - left);
  let offset = 0;
  let prefixEnd = 0;
  let suffixStart = content.length;
  let index = 0;
  // Walks code points with their byte offsets: a character is kept whole or not at all.
  for (const char of content) {
    const width = Buffer.byteLength(char);
    if (offset + width <= left) prefixEnd = index + char.length;
    else if (offset >= tailStart) {
      suffixStart = index;
      break;
    }
    offset += width;
    index += char.length;
  }
  return content.slice(0, prefixEnd) + marker + content.slice(Math.max(suffixStart, prefixEnd));
}
