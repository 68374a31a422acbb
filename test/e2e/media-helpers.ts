/** Shared setup for the media end-to-end tests: fixture images, the bin per test, and reading the request. */
import { isContextFragment } from '../../src/protocol/context-fragments.js';
import { chmod, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterEach, beforeEach } from 'vitest';
import { FakeResponsesServer, type RecordedRequest } from '../support/fake-responses-server.js';
import { startTiller, type StartOptions, type TillerPty } from '../support/pty.js';

export interface ContentPart {
  type: string;
  text?: string;
  image_url?: string;
  audio_url?: string;
  detail?: string;
}

interface InputItem {
  type: string;
  role?: string;
  content?: ContentPart[];
}

export const png = (width: number, height: number, background = '#336699'): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** Writes an executable shell script (a fake clipboard tool on PATH). */
export async function writeScript(file: string, body: string): Promise<void> {
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
}

/** PATH with `bin` first, so its fake tools win. */
export const pathWith = (bin: string): string => `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`;

/** The messages of one role, without the context Tiller adds to every request (brief, permissions, environment). */
function messageContent(request: RecordedRequest, role: string): ContentPart[] {
  const input = request.body.input as InputItem[];
  return input
    .filter((item) => item.type === 'message' && item.role === role && !isContextFragment(item.content?.[0]?.text ?? ''))
    .flatMap((item) => item.content ?? []);
}

/** The content parts of every user message in the request, in order (AGENTS.md, as Codex sends it, among them). */
export const userContent = (request: RecordedRequest): ContentPart[] => messageContent(request, 'user');

export const developerTexts = (request: RecordedRequest): string[] => messageContent(request, 'developer').map((part) => part.text ?? '');

export async function decodeImage(dataUrl: string): Promise<{ width: number; height: number; format: string }> {
  const match = /^data:(image\/[a-z]+);base64,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error(`not an image data URL: ${dataUrl.slice(0, 40)}`);
  const meta = await sharp(Buffer.from(match[2]!, 'base64')).metadata();
  return { width: meta.width!, height: meta.height!, format: meta.format! };
}

export interface MediaSession {
  /** The fake Responses server of the running test (answers `Seen.` by default). */
  readonly server: FakeResponsesServer;
  /** The bin in `cwd()`, 120×36; resolves once the composer is on screen. */
  start(options?: StartOptions): Promise<TillerPty>;
}

/** A fresh fake server and at most one bin per test, both stopped after it. */
export function mediaSession(cwd: () => string, env: () => StartOptions['env'] = () => ({})): MediaSession {
  let server: FakeResponsesServer | null = null;
  let tiller: TillerPty | null = null;
  beforeEach(async () => {
    server = await FakeResponsesServer.start();
    server.setDefault({ text: 'Seen.' });
  });
  afterEach(async () => {
    tiller?.kill();
    tiller = null;
    await server?.close();
    server = null;
  });
  const current = (): FakeResponsesServer => {
    if (server === null) throw new Error('no test is running');
    return server;
  };
  return {
    get server() {
      return current();
    },
    async start(options = {}) {
      tiller = startTiller({
        cwd: cwd(),
        cols: 120,
        rows: 36,
        ...options,
        env: { OPENAI_BASE_URL: current().baseUrl, OPENAI_API_KEY: 'dummy', ...env(), ...options.env },
      });
      await tiller.waitFor('Ask Tiller to do anything', 15_000);
      return tiller;
    },
  };
}
