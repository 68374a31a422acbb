/**
 * The question asked once in a directory with no trust decision (as Codex's onboarding
 * trust_directory step): its lines and what a key does. Pure; ask-trust.ts draws it in the terminal.
 */
import type { TrustLevel } from '../../runtime/project-trust.js';
import { wrapText } from '../wrap.js';

export interface TrustPromptState {
  highlighted: TrustLevel;
}

/** What a key leads to: a decision, quitting without one, or the prompt redrawn. */
export type TrustPromptStep = { kind: 'decide'; level: TrustLevel } | { kind: 'quit' } | { kind: 'move'; state: TrustPromptState };

const OPTIONS: ReadonlyArray<{ level: TrustLevel; label: string }> = [
  { level: 'trusted', label: 'Yes, trust this folder: work here, asking before leaving the sandbox' },
  { level: 'untrusted', label: 'No, ask me before every edit and command' },
];

export const TRUST_QUESTION =
  'Do you trust the files in this folder? A folder you did not make may hold instructions meant to mislead the model, so an untrusted one asks before anything that is not read-only.';

/** The prompt's rows for a terminal `columns` wide. */
export function trustPromptLines(cwd: string, state: TrustPromptState, columns: number): string[] {
  const inner = Math.max(10, columns - 2);
  const indent = (text: string): string[] =>
    wrapText(text, inner)
      .split('\n')
      .map((line) => `  ${line}`);
  return [
    `> You are in ${cwd}`,
    '',
    ...indent(TRUST_QUESTION),
    '',
    ...OPTIONS.map(({ level, label }, i) => `${state.highlighted === level ? '›' : ' '} ${i + 1}. ${label}`),
    '',
    ...indent('Press Enter to continue, Esc to quit. The choice is saved in config.toml.'),
  ];
}

/** A key as the terminal sends it in raw mode (no kitty protocol yet: the chat has not started). */
export function trustPromptKey(state: TrustPromptState, key: string): TrustPromptStep {
  switch (key) {
    case '1':
    case 'y':
    case 'Y':
      return { kind: 'decide', level: 'trusted' };
    case '2':
    case 'n':
    case 'N':
      return { kind: 'decide', level: 'untrusted' };
    case '\r':
    case '\n':
      return { kind: 'decide', level: state.highlighted };
    case '\x1b[A':
    case '\x1bOA':
    case 'k':
      return { kind: 'move', state: { highlighted: 'trusted' } };
    case '\x1b[B':
    case '\x1bOB':
    case 'j':
      return { kind: 'move', state: { highlighted: 'untrusted' } };
    case '\x1b':
    case '\x03':
    case '\x04':
      return { kind: 'quit' };
    default:
      return { kind: 'move', state };
  }
}
