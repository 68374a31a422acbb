/** The session header: the cell built at start (session-header.ts) and its boxed rows (lines.ts). */
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_MODE } from '../../../../src/tui/chat/approvals/approval-modes.js';
import { sessionHeaderCell, tildePath, type SessionHeaderInfo } from '../../../../src/tui/chat/sessions/session-header.js';
import { cellLines, headerLines } from '../../../../src/tui/components/lines.js';
import type { TranscriptCell } from '../../../../src/tui/store.js';

const plain = new Chalk({ level: 0 });

const INFO: SessionHeaderInfo = {
  version: '0.1.0',
  model: 'gpt-5.1-codex',
  effort: null,
  providerLabel: 'openai',
  offline: false,
  cwd: '/home/ada/src/tiller',
  home: '/home/ada',
  approvalMode: DEFAULT_APPROVAL_MODE,
  profile: null,
};

function header(info: Partial<SessionHeaderInfo> = {}): Extract<TranscriptCell, { kind: 'header' }> {
  const cell = sessionHeaderCell({ ...INFO, ...info });
  if (cell.kind !== 'header') throw new Error('not a header cell');
  return { ...cell, id: 1 };
}

describe('tildePath', () => {
  it('writes the home directory as ~, and only a whole directory of it', () => {
    expect(tildePath('/home/ada', '/home/ada')).toBe('~');
    expect(tildePath('/home/ada/src/x', '/home/ada')).toBe('~/src/x');
    expect(tildePath('/home/ada/src/x', '/home/ada/')).toBe('~/src/x');
    expect(tildePath('/home/adam/x', '/home/ada')).toBe('/home/adam/x');
    expect(tildePath('/srv/x', '/home/ada')).toBe('/srv/x');
    expect(tildePath('/srv/x', '/')).toBe('/srv/x');
  });
});

describe('sessionHeaderCell', () => {
  it('holds the version, model, provider, directory with ~ and the approval mode', () => {
    expect(header()).toEqual({
      kind: 'header',
      id: 1,
      version: '0.1.0',
      model: 'gpt-5.1-codex',
      effort: null,
      provider: 'openai',
      directory: '~/src/tiller',
      approvals: 'Auto (workspace-write, asks before leaving the sandbox)',
      profile: null,
    });
  });

  it('says how to leave the offline model', () => {
    expect(header({ offline: true, providerLabel: 'offline', model: 'tiller-offline' }).provider).toBe(
      'offline model — set OPENAI_API_KEY or OPENAI_BASE_URL to use a real one',
    );
  });
});

describe('headerLines', () => {
  it("draws Codex's box: the name and version, then one row per field, as wide as its text", () => {
    expect(headerLines(header({ effort: 'high', profile: 'work' }), 120, plain)).toEqual([
      '╭────────────────────────────────────────────────────────────────────╮',
      '│ >_ Tiller (v0.1.0)                                                 │',
      '│                                                                    │',
      '│ model:     gpt-5.1-codex high   /model to change                   │',
      '│ provider:  openai                                                  │',
      '│ profile:   work                                                    │',
      '│ directory: ~/src/tiller                                            │',
      '│ approvals: Auto (workspace-write, asks before leaving the sandbox) │',
      '╰────────────────────────────────────────────────────────────────────╯',
    ]);
  });

  it('wraps a long value under itself and never goes past the width', () => {
    const rows = headerLines(header({ offline: true, model: 'tiller-offline' }), 60, plain);
    expect(rows.every((row) => stringWidth(row) === 60)).toBe(true);
    expect(rows).toContain('│ provider:  offline model — set OPENAI_API_KEY or         │');
    expect(rows).toContain('│            OPENAI_BASE_URL to use a real one             │');
  });

  it('has no box when the screen is too narrow for one', () => {
    const rows = headerLines(header(), 20, plain);
    expect(rows[0]).toBe('>_ Tiller (v0.1.0)');
    expect(rows.every((row) => stringWidth(row) <= 20)).toBe(true);
  });

  it('is a transcript cell like the others: a blank row first', () => {
    expect(cellLines(header(), 120, plain)[0]).toBe('');
    expect(cellLines(header(), 120, plain).slice(1)).toEqual(headerLines(header(), 120, plain));
  });
});
