/**
 * /inspect in the TUI: typed anywhere in the draft, it opens the pager on what the next request
 * carries (the runtime's own report, through tiller/inspectInput) and leaves the draft as it was;
 * `tiller inspect --report` prints the same lines for the same input.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { inputReportLines } from '../../../../src/protocol/input-report.js';
import { fromV2 } from '../../../../src/protocol/schemas.js';
import { createInProcessAppServer } from '../../../../src/runtime/app-server.js';
import type { ComposerState } from '../../../../src/tui/composer/state.js';
import { charKey } from '../../../../src/tui/keys/types.js';
import {
  INSPECT_DRAFT_TITLE,
  INSPECT_LAST_SENT_TITLE,
  inspectorLines,
  PENDING_STEERS_TITLE,
} from '../../../../src/tui/overlay/inspector.js';
import { attachTranscriptPager } from '../../../../src/tui/overlay/pager-screen.js';
import { tempDir, testConfig } from '../../../runtime/support/config.js';
import { FakeAppServerClient } from '../fake-client.js';
import { createHarness, running, type Harness } from '../harness.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const dir = tempDir('tiller-tui-inspect-');
const shot = join(dir, 'shot.png');
writeFileSync(
  shot,
  await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer(),
);
const skillsDir = join(dir, 'skills');
mkdirSync(join(skillsDir, 'deploy'), { recursive: true });
writeFileSync(join(skillsDir, 'deploy', 'SKILL.md'), 'Ship it.');
// The CLI's home says what the app server's config says.
const cliHome = join(dir, 'home');
mkdirSync(cliHome);
writeFileSync(join(cliHome, 'config.toml'), `skills_dir = ${JSON.stringify(skillsDir)}\n[hooks]\nuser_prompt_submit = ["./check.sh"]\n`);
const runtime = createInProcessAppServer({ config: testConfig({ skillsDir, userPromptSubmitHooks: ['./check.sh'] }), cwd: dir });
afterAll(() => runtime.close());

const PASTE = 'p'.repeat(5000);
const SHOT = { kind: 'image' as const, path: shot, fileName: 'shot.png', bytes: 1, width: 3000, height: 2000, mime: 'image/png' };

/** A controller whose tiller/inspectInput is answered by the real runtime (the fake thread is not its). */
async function harness(): Promise<Harness> {
  const client = new FakeAppServerClient().always('tiller/inspectInput', (p) =>
    runtime.request('tiller/inspectInput', { ...p, threadId: null }),
  );
  return createHarness({ client, clipboard: async () => ({ attachment: SHOT }) });
}

function draftOf(s: ComposerState) {
  return { text: s.ta.text, cursor: s.ta.cursor, elements: s.ta.elements, pendingPastes: s.pendingPastes, attachments: s.attachments };
}

async function reportArrived(h: Harness) {
  await vi.waitFor(() => expect(h.store.getState().pager?.inspect?.report).toBeTruthy(), { timeout: 10_000 });
  return h.store.getState().pager!.inspect!;
}

/** `tiller inspect --report` (the built bin) on core UserInput[] JSON. */
function cliReport(input: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['bin/tiller', 'inspect', '--report'],
      { cwd: root, env: { ...process.env, TILLER_HOME: cliHome } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

describe('/inspect in the composer', () => {
  it('mid-draft from the popup: the pager shows the request (2048×1365), the draft stays, Enter then sends the paste whole', async () => {
    const h = await harness();
    h.type('look at ');
    h.paste(PASTE);
    h.ctrlKey('v');
    await h.settle();
    h.type('$deploy ');
    const before = draftOf(h.store.getState().composer);
    expect(before.text).toBe('look at [Pasted Content 5000 chars][Image #1] $deploy ');
    h.type('/ins');
    h.press('enter');
    expect(draftOf(h.store.getState().composer)).toEqual(before);
    const view = await reportArrived(h);
    expect(view.title).toBe(INSPECT_DRAFT_TITLE);
    expect(view.report!.parts).toContainEqual(expect.objectContaining({ type: 'image', mime: 'image/png', width: 2048, height: 1365 }));
    expect(view.report!.textChars).toBe('look at '.length + 5000 + '[Image #1] $deploy'.length);
    expect(inspectorLines(view, [], 200).join('\n')).toContain('image/png, 2048×1365');
    expect(h.client.requestsOf('turn/start')).toEqual([]);
    expect(draftOf(h.store.getState().composer)).toEqual(before);

    // The same input through `tiller inspect --report` gives the same lines.
    const [asked] = h.client.requestsOf('tiller/inspectInput');
    expect(await cliReport(asked!.input.map(fromV2))).toBe(`${inputReportLines(view.report!).join('\n')}\n`);

    h.store.setState({ pager: null });
    h.press('enter');
    await h.settle();
    const [sent] = h.client.requestsOf('turn/start');
    expect(sent!.input).toContainEqual(expect.objectContaining({ type: 'text', text: `look at ${PASTE}[Image #1] $deploy` }));
    expect(sent!.input).toContainEqual({ type: 'localImage', path: shot });
  });

  it('on its own line above a draft, the line goes and the rest is inspected', async () => {
    const h = await harness();
    h.type('/inspect');
    h.press('enter', { shift: true });
    h.type('look');
    h.press('enter');
    expect(h.composerText()).toBe('look');
    const view = await reportArrived(h);
    expect(view.report!.parts).toEqual([{ role: 'user', type: 'text', chars: 4, preview: 'look' }]);
  });

  it('with an empty draft it shows the last message sent, else says there is nothing', async () => {
    const h = await harness();
    h.type('/inspect');
    h.press('enter');
    expect(h.store.getState().pager).toBeNull();
    expect(h.cellTexts().at(-1)).toBe('• Nothing to inspect. (Type /inspect anywhere in a draft.)');
    h.type('sent before');
    h.press('enter');
    await h.settle();
    h.type('/inspect');
    h.press('enter');
    const view = await reportArrived(h);
    expect(view.title).toBe(INSPECT_LAST_SENT_TITLE);
    expect(view.report!.parts).toEqual([{ role: 'user', type: 'text', chars: 11, preview: 'sent before' }]);
  });

  it('lists the pending steers that go with the request', async () => {
    const h = await harness();
    await running(h);
    h.type('also this');
    h.press('enter');
    await h.settle();
    h.type('and /i');
    h.press('enter');
    expect(h.composerText()).toBe('and ');
    const view = await reportArrived(h);
    const lines = inspectorLines(view, h.store.getState().pendingSteers, 200);
    expect(lines).toContain(PENDING_STEERS_TITLE);
    expect(lines.some((l) => l.startsWith('  ↳ 9 chars  "also this"'))).toBe(true);
  });
});

describe('the inspector on screen', () => {
  it('opens on the alternate screen with its title, scrolls, and q or Esc closes it', async () => {
    const h = await harness();
    const written: string[] = [];
    const terminal = { columns: 80, rows: 10, write: (d: string) => written.push(d), on: () => undefined, off: () => undefined };
    const screen = attachTranscriptPager(h.store, terminal);
    h.type('/inspect');
    h.press('enter', { shift: true });
    h.paste(PASTE);
    h.ctrlKey('v');
    await h.settle();
    h.press('enter');
    await reportArrived(h);
    const frame = written.at(-1)!;
    expect(frame).toContain(' Next request · ');
    expect(written.join('')).toContain('2048×1365');
    expect(screen.handleInput(charKey('j'))).toBe(true);
    expect(h.store.getState().pager?.top).toBe(1);
    expect(screen.handleInput(charKey('q'))).toBe(true);
    expect(h.store.getState().pager).toBeNull();
    expect(h.composerText()).toBe('[Pasted Content 5000 chars][Image #1] ');
    screen.dispose();
  });
});
