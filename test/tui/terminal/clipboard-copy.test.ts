import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyToClipboard, OSC52_MAX_BYTES, osc52, TOO_LONG_FOR_TERMINAL } from '../../../src/tui/terminal/clipboard-copy.js';

/** A directory with fake clipboard programs: each writes its stdin to `<name>.out` and exits `code`. */
function fakeBin(programs: Record<string, number>): { dir: string; out(name: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'tiller-clip-bin-'));
  for (const [name, code] of Object.entries(programs)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n/bin/cat > '${join(dir, `${name}.out`)}'\nexit ${code}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return { dir, out: (name) => readFileSync(join(dir, `${name}.out`), 'utf8') };
}

function decodeOsc52(data: string): string {
  const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(data);
  if (m === null) throw new Error(`not an OSC 52 sequence: ${JSON.stringify(data)}`);
  return Buffer.from(m[1]!, 'base64').toString('utf8');
}

describe('copyToClipboard', () => {
  it('uses wl-copy on Wayland', async () => {
    const bin = fakeBin({ 'wl-copy': 0 });
    const written: string[] = [];
    const result = await copyToClipboard('héllo 😀', {
      env: { PATH: bin.dir, WAYLAND_DISPLAY: 'wayland-0' },
      platform: 'linux',
      writeToTerminal: (d) => written.push(d),
    });
    expect(result).toEqual({ via: 'wl-copy' });
    expect(bin.out('wl-copy')).toBe('héllo 😀');
    expect(written).toEqual([]);
  });

  it('uses xclip with the clipboard selection on X11', async () => {
    const bin = fakeBin({ xclip: 0 });
    const result = await copyToClipboard('x', {
      env: { PATH: bin.dir, DISPLAY: ':0' },
      platform: 'linux',
      writeToTerminal: () => undefined,
    });
    expect(result).toEqual({ via: 'xclip' });
    expect(bin.out('xclip')).toBe('x');
  });

  it('without a display (e.g. over SSH) it asks the terminal through OSC 52', async () => {
    const written: string[] = [];
    const result = await copyToClipboard('line one\nline two', {
      env: { PATH: '/nonexistent' },
      platform: 'linux',
      writeToTerminal: (d) => written.push(d),
    });
    expect(result).toEqual({ via: 'the terminal (OSC 52)' });
    expect(written).toHaveLength(1);
    expect(decodeOsc52(written[0]!)).toBe('line one\nline two');
  });

  it('falls back to OSC 52 when the helper is missing or fails', async () => {
    const bin = fakeBin({ 'wl-copy': 1 });
    const written: string[] = [];
    const result = await copyToClipboard('y', {
      env: { PATH: bin.dir, WAYLAND_DISPLAY: 'w', DISPLAY: ':0' },
      platform: 'linux',
      writeToTerminal: (d) => written.push(d),
    });
    expect(result).toEqual({ via: 'the terminal (OSC 52)' });
    expect(written.map(decodeOsc52)).toEqual(['y']);
  });

  it('refuses text too long for OSC 52 when no helper took it, and writes nothing', async () => {
    const written: string[] = [];
    const result = await copyToClipboard('z'.repeat(OSC52_MAX_BYTES + 1), {
      env: {},
      platform: 'linux',
      writeToTerminal: (d) => written.push(d),
    });
    expect(result).toEqual({ error: TOO_LONG_FOR_TERMINAL });
    expect(written).toEqual([]);
  });

  it('encodes UTF-8 as base64', () => {
    expect(osc52('é')).toBe('\x1b]52;c;w6k=\x07');
  });
});
