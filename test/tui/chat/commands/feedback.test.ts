import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFeedbackReport, writeFeedbackReport } from '../../../../src/tui/chat/commands/feedback.js';
import { composerReducer, initialComposerState } from '../../../../src/tui/composer/reducer.js';
import { charKey } from '../../../../src/tui/keys/types.js';
import { createChatStore, withCells } from '../../../../src/tui/store.js';
import { createHarness, TEST_FEEDBACK } from '../harness.js';

const ENV = {
  platform: 'linux' as const,
  arch: 'x64',
  nodeVersion: 'v20.0.0',
  term: 'xterm-256color',
  termProgram: null,
  columns: 120,
  rows: 40,
};

describe('/feedback report', () => {
  it('counts the session and keeps error messages, but never the user’s text', () => {
    let composer = initialComposerState({ vimEnabled: false, probeMedia: () => null, disablePasteBurst: true });
    for (const ch of 'secret draft') composer = composerReducer(composer, charKey(ch), 0).state;
    const store = createChatStore(composer, { model: 'm', providerLabel: 'offline', offline: true });
    store.setState((s) =>
      withCells(s, [
        { kind: 'user', text: 'my private prompt', textElements: [], attachmentLabels: [], turnId: null },
        { kind: 'agent', markdown: 'the private answer' },
        { kind: 'error', text: 'exceeded retry limit, last error: stream closed' },
      ]),
    );
    const report = buildFeedbackReport(store.getState(), ENV, new Date('2026-11-29T10:00:00Z'));
    expect(report).toMatchObject({
      model: 'm',
      offline: true,
      transcript: { user: 1, agent: 1, error: 1 },
      composer: { chars: 12, attachments: 0 },
      recentProblems: ['error: exceeded retry limit, last error: stream closed'],
    });
    const json = JSON.stringify(report);
    for (const secret of ['private prompt', 'private answer', 'secret draft']) expect(json).not.toContain(secret);
  });

  it('is written under TILLER_HOME/feedback, readable by the user only', () => {
    const home = mkdtempSync(join(tmpdir(), 'tiller-feedback-'));
    const store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: () => null }));
    const report = buildFeedbackReport(store.getState(), ENV, new Date('2026-11-29T10:00:00Z'));
    const path = writeFeedbackReport(home, report);
    expect(path).toBe(join(home, 'feedback', 'feedback-2026-11-29T10-00-00-000Z.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(report);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('/feedback in the chat', () => {
  it('writes the report through the sink and says where it is, the draft kept', async () => {
    const saved: unknown[] = [];
    const h = await createHarness({
      feedback: { environment: TEST_FEEDBACK.environment, save: (report) => (saved.push(report), '/home/u/.tiller/feedback/f.json') },
    });
    h.type('/feedback');
    h.press('enter');
    await h.settle();
    expect(saved).toHaveLength(1);
    expect(h.cellTexts().at(-1)).toContain('Wrote a diagnostic report to /home/u/.tiller/feedback/f.json');
  });

  it('a report that cannot be written is an error cell, and the session goes on', async () => {
    const h = await createHarness({
      feedback: {
        environment: TEST_FEEDBACK.environment,
        save: () => {
          throw new Error('EACCES: permission denied');
        },
      },
    });
    h.type('/feedback');
    h.press('enter');
    await h.settle();
    expect(h.cellTexts().at(-1)).toBe('■ Could not write the feedback report: EACCES: permission denied');
    h.type('hi');
    h.press('enter');
    await h.settle();
    expect(h.client.requestsOf('turn/start')).toHaveLength(1);
  });
});
