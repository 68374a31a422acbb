/** The trust question: its rows, the keys that answer it (as Codex's: 1/y, 2/n, arrows, j/k, Enter), Esc quits. */
import { describe, expect, it } from 'vitest';
import { splitKeys } from '../../../src/tui/onboarding/ask-trust.js';
import { trustPromptKey, trustPromptLines } from '../../../src/tui/onboarding/trust-prompt.js';

const TRUSTED = { highlighted: 'trusted' } as const;
const UNTRUSTED = { highlighted: 'untrusted' } as const;

describe('trust prompt', () => {
  it('names the folder, asks, marks the highlighted answer and wraps to the width', () => {
    const lines = trustPromptLines('/home/me/project', UNTRUSTED, 40);
    expect(lines[0]).toBe('> You are in /home/me/project');
    expect(lines.join('\n')).toContain('Do you trust the files in this folder?');
    expect(lines).toContain('  1. Yes, trust this folder: work here, asking before leaving the sandbox');
    expect(lines).toContain('› 2. No, ask me before every edit and command');
    for (const line of lines.slice(1, lines.indexOf(''))) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('answers with 1/y/2/n at once, Enter takes the highlighted one, arrows and j/k move, Esc/Ctrl+C/Ctrl+D quit', () => {
    expect(trustPromptKey(UNTRUSTED, '1')).toEqual({ kind: 'decide', level: 'trusted' });
    expect(trustPromptKey(TRUSTED, 'n')).toEqual({ kind: 'decide', level: 'untrusted' });
    expect(trustPromptKey(TRUSTED, '\r')).toEqual({ kind: 'decide', level: 'trusted' });
    expect(trustPromptKey(UNTRUSTED, '\r')).toEqual({ kind: 'decide', level: 'untrusted' });
    expect(trustPromptKey(TRUSTED, '\x1b[B')).toEqual({ kind: 'move', state: UNTRUSTED });
    expect(trustPromptKey(UNTRUSTED, 'k')).toEqual({ kind: 'move', state: TRUSTED });
    expect(trustPromptKey(TRUSTED, 'x')).toEqual({ kind: 'move', state: TRUSTED });
    for (const key of ['\x1b', '\x03', '\x04']) expect(trustPromptKey(TRUSTED, key)).toEqual({ kind: 'quit' });
  });

  it('splits raw input into keys, an escape sequence being one', () => {
    expect(splitKeys('\x1b[Bj\x1bOA\r\x1b')).toEqual(['\x1b[B', 'j', '\x1bOA', '\r', '\x1b']);
  });
});
