/**
 * Draws the trust question (trust-prompt.ts) below the cursor and reads the answer in raw mode,
 * before the chat owns the terminal; the prompt's rows are erased once it is answered and raw mode
 * is left as it was found.
 */
import type { TrustLevel } from '../../runtime/project-trust.js';
import { type TrustPromptState, trustPromptKey, trustPromptLines } from './trust-prompt.js';

interface PromptInput extends NodeJS.EventEmitter {
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

interface PromptOutput {
  write(data: string): unknown;
  columns?: number;
}

/** Splits raw input into keys: an escape sequence (CSI or SS3) is one key, as is a lone Esc. */
export function splitKeys(data: string): string[] {
  const keys: string[] = [];
  const pattern = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1bO.|\x1b|[\s\S]/gu;
  for (const match of data.matchAll(pattern)) keys.push(match[0]);
  return keys;
}

/** The decision, or null when the user quit (Esc, Ctrl+C, Ctrl+D, or the input closed). */
export function askTrust(stdin: PromptInput, stdout: PromptOutput, cwd: string): Promise<TrustLevel | null> {
  let state: TrustPromptState = { highlighted: 'trusted' };
  let drawn = 0;
  const draw = (): void => {
    const lines = trustPromptLines(cwd, state, stdout.columns ?? 80);
    // Back to the prompt's first row, erase it and what is below, and draw it again.
    const up = drawn > 1 ? `\x1b[${drawn - 1}A` : '';
    stdout.write(`\r${up}\x1b[J${lines.join('\r\n')}`);
    drawn = lines.length;
  };
  const wasRaw = stdin.isRaw === true;
  stdin.setRawMode?.(true);
  return new Promise((resolve) => {
    const finish = (level: TrustLevel | null): void => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      const up = drawn > 1 ? `\x1b[${drawn - 1}A` : '';
      stdout.write(`\r${up}\x1b[J`);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      resolve(level);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const key of splitKeys(chunk.toString())) {
        const step = trustPromptKey(state, key);
        if (step.kind === 'decide') return finish(step.level);
        if (step.kind === 'quit') return finish(null);
        if (step.state !== state) {
          state = step.state;
          draw();
        }
      }
    };
    const onEnd = (): void => finish(null);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
    draw();
  });
}
