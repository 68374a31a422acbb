/**
 * The inspector of the real request: inspectUserInput and `tiller/inspectInput` give what a turn
 * would send (media processed by the runtime's own conversion), skills, hooks and the text limit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { inputReportLines, type TillerInputPart } from '../../src/protocol/input-report.js';
import { fromUserInput } from '../../src/protocol/response-items.js';
import { MAX_USER_INPUT_TEXT_CHARS, type UserInput } from '../../src/protocol/user-input.js';
import { createInProcessAppServer } from '../../src/runtime/app-server.js';
import { inspectUserInput } from '../../src/runtime/inspect-input.js';
import { tempDir, testConfig } from './support/config.js';

const dir = tempDir('tiller-inspect-input-');
const bigPng = join(dir, 'big.png');
writeFileSync(
  bigPng,
  await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#08f' } })
    .png()
    .toBuffer(),
);
const skillsDir = join(dir, 'skills');
mkdirSync(join(skillsDir, 'deploy'), { recursive: true });
writeFileSync(join(skillsDir, 'deploy', 'SKILL.md'), 'Ship it carefully.');
const options = { skillsDir, hooks: ['./check-prompt.sh'] };
const text = (t: string): UserInput => ({ type: 'text', text: t, text_elements: [] });

describe('inspectUserInput', () => {
  it('a 3000×2000 PNG is reported as sent: 2048×1365, its bytes, detail high, between its tags', async () => {
    const { items, report } = await inspectUserInput([{ type: 'local_image', path: bigPng }, text('what is it?')], options);
    const url = (
      items[0]!.type === 'message' && items[0]!.content[1]!.type === 'input_image' && 'image_url' in items[0]!.content[1]!
        ? items[0]!.content[1]!.image_url
        : ''
    ) as string;
    const sent = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    expect(await sharp(sent).metadata()).toMatchObject({ width: 2048, height: 1365 });
    expect(report.parts).toEqual<TillerInputPart[]>([
      { role: 'user', type: 'text', chars: 23, preview: '<image name=[Image #1]>' },
      { role: 'user', type: 'image', detail: 'high', mime: 'image/png', width: 2048, height: 1365, bytes: sent.length, ref: null },
      { role: 'user', type: 'text', chars: 8, preview: '</image>' },
      { role: 'user', type: 'text', chars: 11, preview: 'what is it?' },
    ]);
    expect(inputReportLines(report)).toContain(`  image  image/png, 2048×1365, ${sent.length} bytes, detail high`);
  });

  it('its items are exactly the runtime conversion of the input', async () => {
    const input: UserInput[] = [
      text('look'),
      { type: 'local_image', path: bigPng },
      { type: 'image', image_url: 'https://example.com/x.png', detail: 'low' },
    ];
    const { items } = await inspectUserInput(input, options);
    expect(items).toEqual(await fromUserInput(input, { localImagePreparation: 'process' }));
  });

  it('a failed attachment is a path-free notice in the developer message', async () => {
    const { report } = await inspectUserInput(
      [
        { type: 'local_image', path: join(dir, 'private', 'gone.png') },
        { type: 'local_audio', path: join(dir, 'a.flac') },
      ],
      options,
    );
    expect(report.parts.filter((p) => p.role === 'developer')).toEqual([
      { role: 'developer', type: 'text', chars: 52, preview: 'Tiller could not read the local image: no such file.' },
      expect.objectContaining({ role: 'developer', type: 'text', preview: expect.stringContaining('local audio') }),
    ]);
    expect(JSON.stringify(report)).not.toContain(dir);
    expect(inputReportLines(report)).toContain('developer message (path-free notices):');
  });

  it('counts the text against 1<<20 as the limit does; a long text is a preview, whole in the items', async () => {
    const long = 'x'.repeat(5000);
    const ok = await inspectUserInput([text(long), text('😀')], options);
    expect(ok.report).toMatchObject({ textChars: 5001, maxTextChars: MAX_USER_INPUT_TEXT_CHARS });
    expect(ok.report.parts[0]).toMatchObject({ type: 'text', chars: 5000, preview: 'x'.repeat(120) });
    expect(ok.items[0]).toMatchObject({ content: [{ text: long }, { text: '😀' }] });
    expect(inputReportLines(ok.report)).toContain(`  text   5000 chars  "${'x'.repeat(120)}"…`);
    expect(inputReportLines(ok.report).at(-1)).toBe('text: 5001 of 1048576 characters');
    const over = await inspectUserInput([text('y'.repeat(MAX_USER_INPUT_TEXT_CHARS + 2))], options);
    expect(inputReportLines(over.report).at(-1)).toBe('text: 1048578 of 1048576 characters, 2 over the limit: it would be refused');
  });

  it('names the skills injected after it and the hooks that run first', async () => {
    const { report } = await inspectUserInput([text('use $deploy now')], options);
    const path = join(skillsDir, 'deploy', 'SKILL.md');
    expect(report.skills).toEqual([
      { name: 'deploy', path, chars: `<skill>\n<name>deploy</name>\n<path>${path}</path>\nShip it carefully.\n</skill>`.length },
    ]);
    expect(report.hooks).toEqual(['./check-prompt.sh']);
    const lines = inputReportLines(report);
    expect(lines).toContain(`  $deploy  ${path} (${report.skills[0]!.chars} chars)`);
    expect(lines).toContain('  ./check-prompt.sh');
  });

  it('shows control characters in text as escapes, never raw', async () => {
    const { report } = await inspectUserInput([text('a\u001b[2Jb\u009bc\n')], options);
    expect(inputReportLines(report)[1]).toBe('  text   9 chars  "a\\u001b[2Jb\\u009bc\\n"');
  });
});

describe('tiller/inspectInput', () => {
  it('uses the thread conversion, and works before any thread exists; nothing is sent or recorded', async () => {
    const calls: UserInput[][] = [];
    const server = createInProcessAppServer({
      config: testConfig({ skillsDir, userPromptSubmitHooks: ['hook'] }),
      cwd: dir,
      prepareUserInput: async (content) => {
        calls.push(content);
        return fromUserInput(content, { localImagePreparation: 'process' });
      },
    });
    await server.request('initialize', { clientInfo: { name: 'test', version: '0' }, capabilities: { tillerExtensions: true } });
    const input = [
      { type: 'localImage' as const, path: bigPng },
      { type: 'text' as const, text: 'hi $deploy', text_elements: [] },
    ];
    const early = await server.request('tiller/inspectInput', { input });
    const { thread } = await server.request('thread/start', {});
    const report = await server.request('tiller/inspectInput', { threadId: thread.id, input });
    expect(report).toEqual(early);
    expect(calls).toHaveLength(2);
    expect(report.parts[1]).toMatchObject({ type: 'image', width: 2048, height: 1365 });
    expect(report).toMatchObject({ skills: [{ name: 'deploy' }], hooks: ['hook'], textChars: 10 });
    expect((await server.request('thread/read', { threadId: thread.id, includeTurns: true })).thread.turns).toEqual([]);
    await expect(server.request('tiller/inspectInput', { threadId: 'nope', input })).rejects.toMatchObject({
      message: 'invalid thread id: nope',
    });
    await expect(server.request('tiller/inspectInput', { input: [{ type: 'video' }] as never })).rejects.toMatchObject({ code: -32602 });
    await server.close();
  });
});
