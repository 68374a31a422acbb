/**
 * The harness tools in the terminal: the fake server has the model update its plan, run a web
 * search, look at an image and ask the user a question; the cells appear, and the answer picked
 * with the keyboard reaches the model (with a steer typed while the question waited).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../support/fake-responses-server.js';
import { sessionPerTest, typeSlowly, userTexts, waitForRequests } from './helpers.js';

const openSession = sessionPerTest();

function toolOutput(request: RecordedRequest, callId: string): unknown {
  const input = request.body.input as Array<{ type: string; call_id?: string; output?: unknown }>;
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;
}

const question = {
  questions: [
    {
      id: 'color',
      header: 'Color',
      question: 'Which color should the button be?',
      options: [
        { label: 'Red (Recommended)', description: 'matches the logo' },
        { label: 'Blue', description: 'calmer' },
      ],
    },
  ],
};

describe('harness tools in the TUI', { timeout: 90_000 }, () => {
  it('shows the plan as a checklist, the web search and the image the model viewed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tiller-e2e-tools-'));
    const image = join(dir, 'shot.png');
    writeFileSync(
      image,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer(),
    );
    const session = await openSession();
    const { server, pty } = session;
    const before = server.requests.length;
    server.enqueue(
      {
        webSearches: [{ action: { type: 'search', query: 'button colors' } }],
        functionCall: {
          name: 'update_plan',
          arguments: {
            plan: [
              { step: 'Look at the shot', status: 'in_progress' },
              { step: 'Pick a color', status: 'pending' },
            ],
          },
          callId: 'plan1',
        },
      },
      {
        functionCall: {
          name: 'update_plan',
          arguments: {
            plan: [
              { step: 'Look at the shot', status: 'completed' },
              { step: 'Pick a color', status: 'in_progress' },
            ],
          },
          callId: 'plan2',
        },
      },
      { functionCall: { name: 'view_image', arguments: { path: image }, callId: 'img' } },
      { text: 'It is red.' },
    );
    await typeSlowly(pty, 'look');
    pty.press('enter');
    const screen = await pty.waitFor((s) => s.includes('It is red.') && !s.includes('esc to interrupt'), 30_000);
    expect(screen).toContain('Searched the web button colors');
    expect(screen).toContain(`Viewed image ${image}`);
    // One plan cell for the turn, as it stood at the end.
    expect(screen.split('Updated Plan').length).toBe(2);
    expect(screen).toMatch(/✔ Look at the shot\n\s+▶ Pick a color/);
    const requests = await waitForRequests(session, before + 4);
    expect(toolOutput(requests[before + 1]!, 'plan1')).toBe('Plan updated');
    expect(toolOutput(requests[before + 3]!, 'img')).toEqual([
      { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,/), detail: 'original' },
    ]);
  });

  it('asks the question above the composer; the arrow keys and Enter pick an answer the model gets', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const before = server.requests.length;
    server.enqueue({ functionCall: { name: 'request_user_input', arguments: question, callId: 'q1' } }, { text: 'Blue it is.' });
    await typeSlowly(pty, 'style it');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Which color should the button be?') && s.includes('› 1. Red (Recommended)'), 30_000);
    pty.press('down');
    await pty.waitFor('› 2. Blue');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Blue it is.') && !s.includes('Which color should'), 30_000);
    const requests = await waitForRequests(session, before + 2);
    expect(toolOutput(requests[before + 1]!, 'q1')).toBe('{"answers":{"color":{"answers":["Blue"]}}}');
  });

  it('a steer typed while the question waits is sent, and a digit then answers', async () => {
    const session = await openSession();
    const { server, pty } = session;
    const before = server.requests.length;
    server.enqueue({ functionCall: { name: 'request_user_input', arguments: question, callId: 'q2' } }, { text: 'Noted both.' });
    await typeSlowly(pty, 'style it');
    pty.press('enter');
    await pty.waitFor('Which color should the button be?', 30_000);
    // Typed keys go to the draft (a `2` inside it does not answer); Enter sends it as a steer.
    await typeSlowly(pty, 'make it 2x bigger');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('make it 2x bigger') && s.includes('Which color should the button be?'));
    pty.write('1');
    await pty.waitFor((s) => s.includes('Noted both.') && !s.includes('esc to interrupt'), 30_000);
    const requests = await waitForRequests(session, before + 2);
    expect(toolOutput(requests[before + 1]!, 'q2')).toBe('{"answers":{"color":{"answers":["Red (Recommended)"]}}}');
    expect(userTexts(requests[before + 1]!)).toContain('make it 2x bigger');
  });
});
