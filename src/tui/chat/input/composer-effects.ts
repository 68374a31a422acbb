/**
 * Carrying out what the composer reducer asks for (ComposerEffect): cells, its timer ticks,
 * history persistence, file search (with the configured MCP servers' `mcp://NAME` entries), the
 * clipboard image and the external editor, each answered by a composer event.
 */
import { errorMessage } from '../../../error-message.js';
import type { Attachment, ComposerEffect, ComposerEvent } from '../../composer/types.js';
import type { NewCell } from '../../store.js';
import { NO_EDITOR_MESSAGE, type ExternalEditResult } from '../../terminal/external-editor.js';
import type { Schedule } from '../turn/delta-buffer.js';
import { withMcpServerEntries } from '../commands/mcp.js';

/** Once a session, when Enter became a newline inside the paste-burst window (submit-key.ts). */
export const BURST_ENTER_HINT =
  'Enter made a newline: the text before it came as fast as a paste, and Enter does not send in a paste. Press Enter again to send; Shift+Enter inserts a newline.';

export const IMAGES_NOT_SUPPORTED_MESSAGE = 'The current model does not support image input; remove the images to send this message.';

export type ClipboardResult = { attachment: Omit<Attachment, 'placeholder'> } | { error: string };

export interface ComposerEffectsHost {
  dispatch(event: ComposerEvent): void;
  cell(cell: NewCell): void;
  /** The composer's timer tick (a ComposerTicks): one pending at a time. */
  scheduleTick(delayMs: number): void;
  showQuitHint(): void;
  /** Whether BURST_ENTER_HINT was shown this session (absent: never shown). */
  burstHint?: { shown: boolean };
  modelSupportsImages: boolean;
  readClipboardImage(): Promise<ClipboardResult>;
  /** `refresh`: the `@` popup opened; `onRefreshed` gets a second answer if the files changed on disk. */
  searchFiles(query: string, opts?: { refresh: true; onRefreshed: (paths: string[]) => void }): Promise<string[]>;
  /** The `$` popup opened: re-read the skills if they changed (answered with `setSkills`). */
  refreshSkills?(): void;
  /** The configured MCP servers' names: the `@` popup offers `mcp://NAME` for those the query matches. */
  mcpServers?(): readonly string[];
  history?: { append(text: string): Promise<void> };
  /** Absent: Ctrl+G answers as if no editor were set. */
  editExternally?(text: string): Promise<ExternalEditResult>;
}

/**
 * The composer's tick, one pending at a time: a burst of pasted characters asks for one per
 * character. A tick already due no later than the one asked for stands (re-arming a timer per
 * character of a megabyte paste is most of its cost); the reducer asks again on that tick if
 * something still waits, so an early tick only looks and asks for the rest.
 */
export class ComposerTicks {
  private pending: { due: number; cancel: () => void } | null = null;

  constructor(
    private readonly later: Schedule,
    private readonly now: () => number,
    private readonly tick: () => void,
  ) {}

  schedule(delayMs: number): void {
    const due = this.now() + delayMs;
    if (this.pending !== null && this.pending.due <= due) return;
    this.pending?.cancel();
    this.pending = {
      due,
      cancel: this.later(() => {
        this.pending = null;
        this.tick();
      }, delayMs),
    };
  }
}

export function runComposerEffect(effect: ComposerEffect, host: ComposerEffectsHost): void {
  switch (effect.type) {
    case 'info':
      return host.cell(
        effect.hint === undefined ? { kind: 'info', text: effect.text } : { kind: 'info', text: effect.text, hint: effect.hint },
      );
    case 'error':
      return host.cell({ kind: 'error', text: effect.text });
    case 'scheduleTick':
      return host.scheduleTick(effect.delayMs);
    case 'persistHistory':
      host.history?.append(effect.text).catch(() => undefined);
      return;
    case 'fileSearch': {
      const { query } = effect;
      const answer = (paths: string[]): void =>
        host.dispatch({ type: 'fileSearchResult', query, paths: withMcpServerEntries(host.mcpServers?.() ?? [], query, paths) });
      host
        .searchFiles(query, ...(effect.refresh === true ? [{ refresh: true as const, onRefreshed: answer }] : []))
        .catch(() => [])
        .then(answer);
      return;
    }
    case 'refreshSkills':
      host.refreshSkills?.();
      return;
    case 'pasteClipboardImage':
      return pasteClipboardImage(host);
    case 'quitHint':
      return host.showQuitHint();
    case 'burstNewline':
      if (host.burstHint === undefined || host.burstHint.shown) return;
      host.burstHint.shown = true;
      return host.cell({ kind: 'info', text: BURST_ENTER_HINT });
    case 'openExternalEditor':
      if (host.editExternally === undefined) return host.cell({ kind: 'error', text: NO_EDITOR_MESSAGE });
      host
        .editExternally(effect.text)
        .then((r) =>
          'error' in r ? host.cell({ kind: 'error', text: r.error }) : host.dispatch({ type: 'externalEditResult', text: r.text }),
        )
        .catch((error: unknown) => host.cell({ kind: 'error', text: `External editor: ${errorMessage(error)}` }));
      return;
  }
}

function pasteClipboardImage(host: ComposerEffectsHost): void {
  const failed = (reason: string): void => host.cell({ kind: 'error', text: `Failed to paste image: ${reason}` });
  host
    .readClipboardImage()
    .then((r) => {
      if ('error' in r) return failed(r.error);
      if (!host.modelSupportsImages) return host.cell({ kind: 'warning', text: IMAGES_NOT_SUPPORTED_MESSAGE });
      host.dispatch({ type: 'attach', attachment: r.attachment });
    })
    .catch((error: unknown) => failed(errorMessage(error)));
}
