/**
 * Ctrl+O: text onto the clipboard. With a display, a helper program (`pbcopy` on macOS, `wl-copy` on
 * Wayland, `xclip` on X11); without one (over SSH, say) or when it fails, the terminal's own
 * clipboard through OSC 52, which most terminals accept. Never throws: failures become a message.
 */
import { spawn } from 'node:child_process';

export interface CopyOptions {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Writes raw bytes to the terminal (for OSC 52). */
  writeToTerminal(data: string): void;
  timeoutMs?: number;
}

export type CopyResult = { via: string } | { error: string };

/** Terminals cap OSC 52 payloads (xterm at about 1 MB of base64); longer text is refused, not cut. */
export const OSC52_MAX_BYTES = 512 * 1024;
export const TOO_LONG_FOR_TERMINAL = 'Too long for the terminal clipboard and no clipboard program worked (pbcopy, wl-copy or xclip).';

interface Helper {
  command: string;
  args: string[];
}

function helpersFor(opts: CopyOptions): Helper[] {
  if (opts.platform === 'darwin') return [{ command: 'pbcopy', args: [] }];
  const helpers: Helper[] = [];
  if (opts.env.WAYLAND_DISPLAY) helpers.push({ command: 'wl-copy', args: [] });
  if (opts.env.DISPLAY) helpers.push({ command: 'xclip', args: ['-selection', 'clipboard'] });
  return helpers;
}

export async function copyToClipboard(text: string, opts: CopyOptions): Promise<CopyResult> {
  for (const helper of helpersFor(opts)) {
    if (await runWithInput(helper, text, opts)) return { via: helper.command };
  }
  if (Buffer.byteLength(text) > OSC52_MAX_BYTES) return { error: TOO_LONG_FOR_TERMINAL };
  opts.writeToTerminal(osc52(text));
  return { via: 'the terminal (OSC 52)' };
}

export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** True when the helper took the text and exited 0. It may fork to keep serving the selection, so
 * only its exit counts, and its output streams are not kept open. */
function runWithInput(helper: Helper, text: string, opts: CopyOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(helper.command, helper.args, { env: opts.env, stdio: ['pipe', 'ignore', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill();
      resolve(false);
    }, opts.timeoutMs ?? 5_000);
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      resolve(ok);
    };
    child.once('error', () => done(false));
    child.once('exit', (code) => done(code === 0));
    child.stdin.once('error', () => undefined);
    child.stdin.end(text);
  });
}
