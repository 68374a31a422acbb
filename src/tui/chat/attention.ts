/**
 * A desktop notification when the user may not be looking: a turn ended, or an approval waits,
 * while the terminal window is not focused. Focus comes from the terminal's focus reports (`CSI ?
 * 1004 h`, on while Tiller runs: terminal/modes.ts); until the terminal has reported at least once
 * Tiller does not know, and stays quiet: a bell after every answer the user watched would be noise.
 *
 * The notification is written to the terminal: OSC 9 (iTerm2, WezTerm, kitty, Ghostty, Windows
 * Terminal…), OSC 777 (urxvt, foot, VTE terminals), or a bell; config `notify`. Its text never
 * holds prompt or answer text: only what happened, and for an approval the command line.
 */
import type { NotifyMethod } from '../../runtime/config-check.js';

export const TURN_FINISHED_NOTIFICATION = 'Tiller: turn finished';
const APPROVAL_PREFIX = 'Tiller: approval needed: ';
const COMMAND_CHARS = 60;

/** The command on one line, at most 60 characters (the last one `…` when cut). */
export function approvalNotification(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return APPROVAL_PREFIX + (chars.length > COMMAND_CHARS ? `${chars.slice(0, COMMAND_CHARS - 1).join('')}…` : line);
}

/** What to write for `message`, or null for `off`. Control characters would end the sequence early. */
export function notificationSequence(method: NotifyMethod, message: string): string | null {
  const text = message.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ');
  switch (method) {
    case 'osc9':
      return `\x1b]9;${text}\x07`;
    case 'osc777':
      return `\x1b]777;notify;Tiller;${text.replace(/^Tiller: /, '')}\x07`;
    case 'bell':
      return '\x07';
    case 'off':
      return null;
  }
}

/**
 * Inside tmux an OSC reaches the outer terminal only wrapped in tmux's passthrough (`ESC P tmux;`,
 * each ESC doubled, `ESC \\`; tmux needs `allow-passthrough on`). A bell needs no wrapping.
 */
export function forTmux(sequence: string): string {
  if (!sequence.startsWith('\x1b]')) return sequence;
  return `\x1bPtmux;${sequence.replace(/\x1b/g, '\x1b\x1b')}\x1b\\`;
}

export class AttentionNotifier {
  /** null until the terminal reports focus for the first time. */
  private focused: boolean | null = null;

  constructor(
    private readonly method: NotifyMethod,
    private readonly write: ((data: string) => void) | null,
  ) {}

  setFocused(focused: boolean): void {
    this.focused = focused;
  }

  /** Writes the notification when the terminal said it is not focused; true when written. */
  notify(message: string): boolean {
    if (this.focused !== false || this.write === null) return false;
    const sequence = notificationSequence(this.method, message);
    if (sequence === null) return false;
    try {
      this.write(sequence);
    } catch {
      // A closed terminal cannot be notified; nothing else depends on it.
      return false;
    }
    return true;
  }
}
