/**
 * The composer's contract with the app layer (docs/codex-parity.md#input-results): what goes in (events) and what
 * comes out (InputResult plus effects the app carries out). The reducer itself is pure.
 */
import type { TextElement } from '../../protocol/user-input.js';
import type { InputEvent } from '../keys/types.js';

/** A local file attached in the composer, shown as `[Image #N]` or `[Audio #N]`. */
export interface Attachment {
  kind: 'image' | 'audio';
  placeholder: string;
  path: string;
  /** For the attachment row: file name, size, pixel size. */
  fileName: string;
  bytes: number;
  width: number | null;
  height: number | null;
  mime: string;
}

/** Synchronous probe of a pasted string: is it one path to an image or audio file? (header read) */
export type MediaProbe = (pasted: string) => Omit<Attachment, 'placeholder'> | null;

export type QueuedInputAction = 'plain' | 'parseSlash' | 'runShell';

/** A `$name` mention element inserted from the skill popup, bound to the skill it names. */
export interface MentionBinding {
  name: string;
  path: string;
}

/** A skill offered by the `$` popup. */
export interface SkillInfo {
  name: string;
  path: string;
  description?: string;
}

export interface Submission {
  text: string;
  /** Valid UTF-8 byte ranges into `text` (after paste expansion and trim). */
  textElements: TextElement[];
  attachments: Attachment[];
  /** Mentions still present in `text` (from the `$` popup). */
  mentions?: MentionBinding[];
}

/** The key a submission was made with: Enter, Tab while idle, or Ctrl+Enter (send it alone at once). */
export type SubmitMode = 'enter' | 'tab' | 'sendNow';

export type InputResult =
  | { type: 'none' }
  | ({ type: 'submitted'; mode: SubmitMode } & Submission)
  | ({ type: 'queued'; action: QueuedInputAction } & Submission)
  /** `args`: the text after the name, for a command that takes arguments (takesArgs). */
  | { type: 'command'; command: string; args?: string };

/** Side effects for the app: history cells, timers, persistence, async lookups. */
export type ComposerEffect =
  | { type: 'info'; text: string; hint?: string }
  | { type: 'error'; text: string }
  /** Ask for a `tick` event after this delay (paste-burst flush, quit-hint expiry). */
  | { type: 'scheduleTick'; delayMs: number }
  /** Append a submitted text to the persistent history file. */
  | { type: 'persistHistory'; text: string }
  /**
   * Start an `@` file search; answer with a `fileSearchResult` event. `refresh` (the popup just opened):
   * the file list may have changed on disk since it was read; answer from it now if there is one, and
   * again once it is read anew if that changed the answer.
   */
  | { type: 'fileSearch'; query: string; refresh?: boolean }
  /** A `$` token started: re-read the skills if their directory changed; answer with `setSkills`. */
  | { type: 'refreshSkills' }
  /** Ctrl+V / Alt+V: read an image from the clipboard; answer with `attach` or `error`. */
  | { type: 'pasteClipboardImage' }
  /** Ctrl+C cleared the draft: show the `ctrl + c` quit hint. */
  | { type: 'quitHint' }
  /** Enter inserted a newline because it came inside a paste burst's window (the host says why, once). */
  | { type: 'burstNewline' }
  /** Ctrl+G: open this text in the user's editor; answer with `externalEditResult`. */
  | { type: 'openExternalEditor'; text: string };

export type ComposerEvent =
  | InputEvent
  | { type: 'tick' }
  /** A chunk of terminal input has been read (PasteBurst.touch). */
  | { type: 'inputRead' }
  /**
   * Plain ASCII characters read together, each as its own key would be, for a burst that is buffering
   * (`takesCharRun`); refused (`handled: false`, nothing changed) when it is not.
   */
  | { type: 'burstChars'; chars: string }
  | { type: 'attach'; attachment: Omit<Attachment, 'placeholder'> }
  | { type: 'fileSearchResult'; query: string; paths: string[] }
  | { type: 'setTaskRunning'; running: boolean }
  | { type: 'setVimEnabled'; enabled: boolean }
  /**
   * Put a whole draft back (interrupt restore, Alt+Up, history): replaces the composer content.
   * `pendingPastes` are the payloads of `[Pasted Content N chars]` elements in the draft, so the
   * placeholders stay placeholders (each label in the text with a payload becomes a paste element).
   */
  | { type: 'restoreDraft'; draft: Submission; pendingPastes?: Array<{ placeholder: string; text: string }> }
  | { type: 'loadPersistentHistory'; entries: string[] }
  /** The skills the `$` popup offers (none → no `$` popup). */
  | { type: 'setSkills'; skills: SkillInfo[] }
  /** The cells the text wraps at on screen: Up/Down then move by wrapped row, not by logical line. */
  | { type: 'setWidth'; width: number }
  /** What the external editor (Ctrl+G) saved: it replaces the draft. */
  | { type: 'externalEditResult'; text: string };
