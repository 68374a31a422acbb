/**
 * Ctrl+V / Alt+V: read an image from the system clipboard into a temporary file (docs/codex-parity.md#images-in-the-composer).
 * Terminals cannot carry clipboard images, so a helper program does it: `wl-paste` on Wayland, `xclip` on
 * X11, `pngpaste` or `osascript` on macOS. Asynchronous (the UI keeps running) and never throws: every
 * failure becomes a short message for the transcript.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../error-message.js';
import { sniffImage, type SniffedImage } from '../../protocol/media-type.js';
import type { Attachment } from '../composer/types.js';

export interface ClipboardOptions {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Where the temporary image is written. */
  tmpDir: string;
  /** How long a helper program may take (default 5 s). */
  timeoutMs?: number;
}

export type ClipboardImageResult = { path: string; attachment: Omit<Attachment, 'placeholder'> } | { error: string };

export const NO_IMAGE = 'No image on the clipboard.';
export const NO_DISPLAY = 'No clipboard available (no Wayland or X11 display).';

const DEFAULT_TIMEOUT_MS = 5_000;
/** A clipboard screenshot of a large display is tens of MB; more than this is not a paste. */
const MAX_CLIPBOARD_BYTES = 256 * 1024 * 1024;

const EXTENSION: Record<SniffedImage['format'], string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

export async function readClipboardImage(opts: ClipboardOptions): Promise<ClipboardImageResult> {
  try {
    const source = await readImageBytes(opts);
    if ('error' in source) return source;
    const image = sniffImage(source.bytes);
    if (image === null) return { error: NO_IMAGE };
    const file = tempImagePath(opts.tmpDir, EXTENSION[image.format]);
    await writeFile(file, source.bytes, { flag: 'wx', mode: 0o600 });
    return {
      path: file,
      attachment: {
        kind: 'image',
        path: file,
        fileName: path.basename(file),
        bytes: source.bytes.length,
        width: image.width,
        height: image.height,
        mime: image.mime,
      },
    };
  } catch (error) {
    // e.g. the temporary directory is not writable; the caller prefixes `Failed to paste image: `.
    return { error: errorMessage(error) };
  }
}

type Bytes = { bytes: Buffer } | { error: string };

async function readImageBytes(opts: ClipboardOptions): Promise<Bytes> {
  if (opts.platform === 'darwin') return readMac(opts);
  if (opts.platform === 'win32') return { error: 'Reading images from the clipboard is not supported on Windows yet.' };
  const wayland = Boolean(opts.env.WAYLAND_DISPLAY);
  const x11 = Boolean(opts.env.DISPLAY);
  if (wayland) {
    const result = await readWayland(opts);
    // Under XWayland the X11 clipboard works too; fall back to it only when wl-paste is not installed.
    if ('missing' in result) {
      if (x11) {
        const fallback = await readX11(opts);
        if (!('missing' in fallback)) return fallback;
      }
      return { error: 'wl-paste not found: install wl-clipboard' };
    }
    return result;
  }
  if (x11) {
    const result = await readX11(opts);
    return 'missing' in result ? { error: 'xclip not found: install xclip' } : result;
  }
  return { error: NO_DISPLAY };
}

type HelperBytes = Bytes | { missing: true };

async function readWayland(opts: ClipboardOptions): Promise<HelperBytes> {
  const list = await run('wl-paste', ['--list-types'], opts);
  if (!list.ok) return list.reason === 'missing' ? { missing: true } : { error: failureMessage('wl-paste', list) };
  const type = pickImageType(list.stdout.toString('utf8'));
  if (type === null) return { error: NO_IMAGE };
  const data = await run('wl-paste', ['--no-newline', '--type', type], opts);
  return data.ok ? { bytes: data.stdout } : { error: failureMessage('wl-paste', data) };
}

async function readX11(opts: ClipboardOptions): Promise<HelperBytes> {
  const list = await run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o'], opts);
  if (!list.ok) return list.reason === 'missing' ? { missing: true } : { error: failureMessage('xclip', list) };
  const type = pickImageType(list.stdout.toString('utf8'));
  if (type === null) return { error: NO_IMAGE };
  const data = await run('xclip', ['-selection', 'clipboard', '-t', type, '-o'], opts);
  return data.ok ? { bytes: data.stdout } : { error: failureMessage('xclip', data) };
}

async function readMac(opts: ClipboardOptions): Promise<Bytes> {
  const png = await run('pngpaste', ['-'], opts);
  if (png.ok) return { bytes: png.stdout };
  if (png.reason !== 'missing') return { error: failureMessage('pngpaste', png) };
  // Without pngpaste, AppleScript can write the clipboard's PNG flavour to a file.
  const file = tempImagePath(opts.tmpDir, 'osascript.png');
  const script = [
    `set f to open for access (POSIX file ${appleScriptString(file)}) with write permission`,
    'try',
    'write (the clipboard as «class PNGf») to f',
    'on error message',
    'close access f',
    'error message',
    'end try',
    'close access f',
  ];
  const result = await run(
    'osascript',
    script.flatMap((line) => ['-e', line]),
    opts,
  );
  try {
    if (!result.ok) {
      return { error: result.reason === 'missing' ? 'osascript not found' : failureMessage('osascript', result) };
    }
    return { bytes: await readFile(file) };
  } finally {
    await rm(file, { force: true });
  }
}

/** Prefer PNG, else the first image type the clipboard offers. */
function pickImageType(listing: string): string | null {
  const types = listing.split(/\r?\n/).map((t) => t.trim());
  if (types.includes('image/png')) return 'image/png';
  return types.find((t) => t.startsWith('image/')) ?? null;
}

function appleScriptString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function tempImagePath(tmpDir: string, extension: string): string {
  return path.join(tmpDir, `tiller-clipboard-${randomBytes(4).toString('hex')}.${extension}`);
}

type Failure = { ok: false; reason: 'missing' | 'timeout' | 'tooLarge' | 'failed'; stderr: string; timeoutMs: number };
type RunResult = { ok: true; stdout: Buffer } | Failure;

function run(command: string, args: string[], opts: ClipboardOptions): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const options = { env: opts.env, encoding: 'buffer' as const, timeout: timeoutMs, maxBuffer: MAX_CLIPBOARD_BYTES };
  return new Promise((resolve) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const code = (error as NodeJS.ErrnoException).code;
      let reason: Failure['reason'] = 'failed';
      if (code === 'ENOENT') reason = 'missing';
      else if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reason = 'tooLarge';
      else if (error.killed) reason = 'timeout';
      resolve({ ok: false, reason, stderr: stderr.toString('utf8'), timeoutMs });
    });
  });
}

/**
 * An empty clipboard makes the helpers exit non-zero ("Nothing is copied", "target TARGETS not available",
 * "No PNG data found"): that is the no-image case, not a failure worth its stderr.
 */
function failureMessage(command: string, result: Failure): string {
  if (result.reason === 'timeout') {
    const ms = result.timeoutMs;
    return `${command} did not answer within ${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`}.`;
  }
  if (result.reason === 'tooLarge') {
    return `The clipboard image is larger than ${MAX_CLIPBOARD_BYTES / (1024 * 1024)} MiB.`;
  }
  if (/nothing is copied|no selection|no suitable type|not available|no png data|can.t convert/i.test(result.stderr)) {
    return NO_IMAGE;
  }
  const firstLine = result.stderr
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
  return firstLine ? `${command} failed: ${firstLine.slice(0, 200)}` : NO_IMAGE;
}
