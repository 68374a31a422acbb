/**
 * The screen never lies, in the real bin in a pty: resizes while an answer streams leave the
 * conversation in scrollback + screen exactly once, the live area drawn once below it; exit leaves no
 * composer behind; NO_COLOR is obeyed; a pasted escape sequence never reaches the terminal.
 */
import { describe, expect, it } from 'vitest';
import { TYPING_GAP_MS } from '../../src/tui/chat/approvals/typing-run.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { holdsAfter, sessionPerTest, typeSlowly, waitForRequests } from './helpers.js';

const start = sessionPerTest();

const marker = (i: number): string => `M${i}K`;
function paragraphs(n: number): string {
  return Array.from({ length: n }, (_, i) => `${marker(i)} words enough to wrap at narrow widths, and a little more text here.`).join(
    '\n\n',
  );
}

/** Polls scrollback + screen (a small window may show only the tail of what arrived). */
async function waitForText(pty: TillerPty, needle: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pty.logicalText().includes(needle)) {
    if (Date.now() > deadline) throw new Error(`${needle} never arrived; screen:\n${pty.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits for a whole frame with `needle` in scrollback + screen. */
async function frameWithText(pty: TillerPty, needle: string): Promise<void> {
  await pty.waitFor(() => pty.logicalText().includes(needle), 20_000);
}

/** The bin's redraw at a new size begins by clearing the screen and the scrollback (app.tsx). */
const CLEAR_SCROLLBACK = '\x1b[3J';

/**
 * Resizes and lets the held burst of the answer go the moment the bin starts redrawing at the new
 * size, so its deltas land while the transcript is written again; then waits for the redraw at the
 * new width: the footer spans the width again.
 */
async function resizeReleasingDuringRedraw(pty: TillerPty, cols: number, rows: number, gate: { release(): void }): Promise<void> {
  const redrawing = new Promise<void>((resolve) => {
    const stop = pty.onOutput((data) => {
      if (!data.includes(CLEAR_SCROLLBACK)) return;
      stop();
      gate.release();
      resolve();
    });
  });
  pty.resize(cols, rows);
  await redrawing;
  await pty.waitFor((s) => s.split('\n').some((line) => line.startsWith('  ? for shortcuts') && line.length >= cols - 1));
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** A deterministic generator (mulberry32): the seed is in the test's name, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the screen under resizes, at exit, with NO_COLOR and pasted escapes', { timeout: 120_000 }, () => {
  it('resized wider, narrower, shorter and taller while an answer streams: every paragraph once, in order, one composer', async () => {
    const { server, pty } = await start({ cols: 120, rows: 40 });
    // Held after 4, 11, 18, 25 and 32 paragraphs: each resize comes mid-answer, the next seven after it.
    const stops = [4, 11, 18, 25, 32];
    const { gates, hold } = holdsAfter(
      server,
      stops.map((n) => paragraphs(n)),
    );
    server.enqueue({ text: paragraphs(40), hold });
    await typeSlowly(pty, 'go');
    pty.press('enter');
    await pty.waitFor(marker(3));
    for (const [i, [cols, rows]] of (
      [
        [100, 40],
        [60, 20],
        [40, 15],
        [140, 30],
        [90, 12],
      ] as const
    ).entries()) {
      await resizeReleasingDuringRedraw(pty, cols, rows, gates[i]!);
      await frameWithText(pty, marker((stops[i + 1] ?? 40) - 1));
    }
    await waitForText(pty, marker(39));
    await pty.waitFor((s) => !s.includes('esc to interrupt'));
    const text = pty.logicalText();
    const at = Array.from({ length: 40 }, (_, i) => {
      expect(countOf(text, marker(i)), `${marker(i)} in:\n${text}`).toBe(1);
      return text.indexOf(marker(i));
    });
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(countOf(text, 'Ask Tiller to do anything')).toBe(1);
    expect(countOf(text, '› go')).toBe(1);
  });

  const SEED = 1_201;
  it(`random resizes (width 30–200, height 8–60) during 6 streamed turns leave each turn's text once (seed ${SEED})`, async () => {
    const next = random(SEED);
    const { server, pty } = await start({ cols: 100, rows: 30 });
    for (let turn = 0; turn < 6; turn++) {
      const paras = Array.from({ length: 12 }, (_, i) => `T${turn}P${i}X ${'中文 word '.repeat(1 + (i % 4))}`);
      // Held after 2, 5, 8 and 11 paragraphs: each resize comes mid-answer, the next three after it.
      const stops = [2, 5, 8, 11];
      const { gates, hold } = holdsAfter(
        server,
        stops.map((n) => paras.slice(0, n).join('\n\n')),
      );
      server.enqueue({ text: `${paras.join('\n\n')}\n\n- T${turn}LISTX item\n\n\`\`\`\nT${turn}CODEX = 1\n\`\`\``, hold });
      await typeSlowly(pty, `q${turn}`);
      pty.press('enter');
      await waitForText(pty, `T${turn}P1X`);
      for (let k = 0; k < 4; k++) {
        await resizeReleasingDuringRedraw(pty, 30 + Math.floor(next() * 171), 8 + Math.floor(next() * 53), gates[k]!);
        await frameWithText(pty, k < 3 ? `T${turn}P${stops[k + 1]! - 1}X` : `T${turn}CODEX`);
      }
      await waitForText(pty, `T${turn}CODEX`);
      await pty.waitFor((s) => !s.includes('esc to interrupt'));
    }
    const all = pty.logicalText();
    for (let turn = 0; turn < 6; turn++) {
      for (let i = 0; i < 12; i++) expect(countOf(all, `T${turn}P${i}X`), `T${turn}P${i}X`).toBe(1);
      expect(countOf(all, `T${turn}LISTX`)).toBe(1);
      expect(countOf(all, `T${turn}CODEX`)).toBe(1);
    }
    expect(countOf(all, 'Ask Tiller to do anything')).toBe(1);
  });

  it('resized while the approval prompt shows, while a command prints and while a popup is open: each drawn once', async () => {
    const pty = startTiller({ cols: 100, rows: 30, args: ['-a', 'untrusted', '-s', 'danger-full-access'] });
    try {
      await pty.waitFor('Ask Tiller to do anything');
      // Pasted: the resizes are the point, not the typing.
      const command = 'run: for i in 1 2 3 4 5 6; do echo OUT$i; sleep 0.15; done';
      pty.paste(command);
      await pty.waitFor((s) => s.includes(command));
      pty.press('enter');
      await pty.waitFor('Would you like to run the following command?');
      for (const [cols, rows] of [
        [70, 20],
        [120, 34],
      ] as const) {
        pty.resize(cols, rows);
        await pty.waitFor('Would you like to run the following command?');
      }
      expect(countOf(pty.logicalText(), 'Would you like to run the following command?')).toBe(1);
      // A lone y, after the typing gap: a letter right after typing would go into the draft.
      await new Promise((resolve) => setTimeout(resolve, TYPING_GAP_MS));
      pty.write('y');
      await waitForText(pty, 'OUT2');
      pty.resize(60, 16);
      await pty.waitFor('esc to interrupt');
      pty.resize(110, 30);
      await pty.waitFor((s) => !s.includes('esc to interrupt'), 20_000);
      const text = pty.logicalText();
      expect(countOf(text, 'Would you like to run the following command?')).toBe(0);
      expect(countOf(text, 'OUT6')).toBe(1);
      expect(countOf(text, '$ for i in 1 2 3 4 5 6')).toBe(1);
      await typeSlowly(pty, '/');
      await pty.waitFor('choose the model and its reasoning effort');
      pty.resize(80, 24);
      await pty.waitFor('choose the model and its reasoning effort');
      expect(countOf(pty.logicalText(), 'choose the model and its reasoning effort')).toBe(1);
    } finally {
      pty.kill();
    }
  });

  it('on exit the composer and the footer are gone and the cursor is on a fresh line below the transcript', async () => {
    const { server, pty } = await start({ cols: 80, rows: 24 });
    server.enqueue({ text: 'the last answer' });
    await typeSlowly(pty, 'hi');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('the last answer') && !s.includes('esc to interrupt'));
    expect(await pty.exit()).toBe(0);
    const screen = pty.screen();
    expect(screen).not.toContain('Ask Tiller to do anything');
    expect(screen).not.toContain('? for shortcuts');
    const lines = pty.lines();
    const answerRow = lines.findIndex((l) => l.includes('the last answer'));
    expect(pty.cursor().y).toBeGreaterThan(answerRow);
    expect(pty.cursor().x).toBe(0);
  });

  it('NO_COLOR turns colour off (no colour SGR at all); FORCE_COLOR still wins', async () => {
    const colourSgr = /\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25]|4[0-7])[;m]/;
    const plain = await start({ cols: 80, rows: 24, env: { NO_COLOR: '1' } });
    plain.server.enqueue({ text: 'an answer with `code` and **bold**\n\n```ts\nconst x = 1;\n```' });
    await typeSlowly(plain.pty, 'hi');
    plain.pty.press('enter');
    await plain.pty.waitFor((s) => s.includes('const x = 1;') && !s.includes('esc to interrupt'));
    expect(plain.pty.raw()).not.toMatch(colourSgr);
    plain.pty.kill();
    const forced = await start({ cols: 80, rows: 24, env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    forced.server.enqueue({ text: 'an answer with `code`' });
    await typeSlowly(forced.pty, 'hi');
    forced.pty.press('enter');
    await forced.pty.waitFor((s) => s.includes('an answer with code') && !s.includes('esc to interrupt'));
    expect(forced.pty.raw()).toMatch(colourSgr);
  });

  it('a terminal that answers with a white background gets the light colours: code in blue, not cyan', async () => {
    const light = await start({ cols: 80, rows: 24, env: { FORCE_COLOR: '1' }, background: 'rgb:ffff/ffff/ffff' });
    light.server.enqueue({ text: 'run `npm test` now' });
    await typeSlowly(light.pty, 'hi');
    light.pty.press('enter');
    await light.pty.waitFor((s) => s.includes('run npm test now') && !s.includes('esc to interrupt'));
    expect(light.pty.raw()).toContain('\x1b[34mnpm test');
    expect(light.pty.raw()).not.toContain('\x1b[36mnpm test');
    light.pty.kill();
    const dark = await start({ cols: 80, rows: 24, env: { FORCE_COLOR: '1' }, background: 'rgb:0000/0000/0000' });
    dark.server.enqueue({ text: 'run `npm test` now' });
    await typeSlowly(dark.pty, 'hi');
    dark.pty.press('enter');
    await dark.pty.waitFor((s) => s.includes('run npm test now') && !s.includes('esc to interrupt'));
    expect(dark.pty.raw()).toContain('\x1b[36mnpm test');
  });

  it('an unterminated OSC in a paste stays in the draft whole, shown escaped, and the screen around it intact', async () => {
    const { server, pty } = await start({ cols: 80, rows: 24 });
    server.enqueue({ text: 'got it' });
    pty.paste('a\x1b]0;x');
    await pty.waitFor('› a^[]0;x');
    expect(pty.screen()).toContain('? for shortcuts');
    pty.press('enter');
    const [request] = await waitForRequests({ server, pty }, 1);
    expect(JSON.stringify(request!.body.input)).toContain('a\\u001b]0;x');
    await pty.waitFor('got it');
    expect(pty.titles()).toEqual([]);
  });

  it('a pasted OSC title sequence, steered and queued while a turn runs, never sets the title; it shows escaped', async () => {
    const { server, pty } = await start({ cols: 100, rows: 30 });
    // Held after two paragraphs until the steer and the queued message are in.
    const { gates, hold } = holdsAfter(server, [paragraphs(2)]);
    server.enqueue({ text: paragraphs(30), hold }, { text: 'second' }, { text: 'third' });
    await typeSlowly(pty, 'go');
    pty.press('enter');
    await pty.waitFor(marker(1));
    pty.paste('steer \x1b]0;PWN\x07 this');
    await pty.waitFor('steer ^[]0;PWN^G this');
    pty.press('enter');
    pty.paste('queue \x1b]2;OWNED\x07 that');
    await pty.waitFor('queue ^[]2;OWNED^G that');
    pty.press('tab');
    await pty.waitFor((s) => s.includes('↳ queue ^[]2;OWNED^G that'));
    gates[0]!.release();
    await waitForRequests({ server, pty }, 3);
    expect(pty.titles().some((t) => t.includes('PWN') || t.includes('OWNED'))).toBe(false);
    // The model still got the text as pasted.
    const sent = JSON.stringify(server.requests.map((r) => r.body.input));
    expect(sent).toContain('steer \\u001b]0;PWN\\u0007 this');
  });
});
