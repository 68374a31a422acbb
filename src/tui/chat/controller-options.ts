/** What the ChatController is given: the client, the store, the config it reads, and its ports to the terminal and the disk. */
import type { AppServerClient, InitializeParams } from '../../protocol/api.js';
import { TILLER_VERSION } from '../../version.js';
import type { TillerConfig } from '../../runtime/config.js';
import type { Attachment, SkillInfo } from '../composer/types.js';
import type { OverlayKeys } from '../overlay/pager-screen.js';
import type { CopyResult } from '../terminal/clipboard-copy.js';
import type { ExternalEditResult } from '../terminal/external-editor.js';
import type { ChatStore } from '../store.js';
import type { FeedbackSink } from './commands/feedback.js';
import type { LocalShellResult } from './commands/local-commands.js';
import type { ClipboardResult, ComposerEffectsHost } from './input/composer-effects.js';
import type { DraftJournalPort } from './sessions/draft-journal.js';
import type { AttachmentProbe } from './sessions/prompt-draft.js';
import type { SessionStart } from './sessions/sessions.js';
import type { Schedule } from './turn/delta-buffer.js';

/** `tiller PROMPT -i IMAGE`: the prompt goes out as the first message; images alone wait in the composer. */
export interface InitialInput {
  text: string;
  attachments: Array<Omit<Attachment, 'placeholder'>>;
}

export interface ChatControllerOptions {
  client: AppServerClient;
  store: ChatStore;
  config: Pick<
    TillerConfig,
    | 'model'
    | 'reasoningEffort'
    | 'approvalPolicy'
    | 'sandboxMode'
    | 'sandboxWritableRoots'
    | 'sandboxNetworkAccess'
    | 'modelSupportsImages'
    | 'vimModeDefault'
    | 'warnings'
    | 'notify'
  > &
    /** `[mcp_servers.*]`: their names for the `@` popup (absent: none); `home`: where /statusline and /theme save (absent: not saved). */
    Partial<Pick<TillerConfig, 'mcpServers' | 'home' | 'statusLine'>>;
  cwd: string;
  now: () => number;
  schedule: Schedule;
  /** A `!cmd`; by default through the app server (tiller/shellCommand), so the model hears of it. */
  runLocalShell?: (command: string) => Promise<LocalShellResult>;
  readClipboardImage: () => Promise<ClipboardResult>;
  searchFiles: ComposerEffectsHost['searchFiles'];
  /** Ctrl+O: text onto the system or terminal clipboard. */
  copyToClipboard?: (text: string) => Promise<CopyResult>;
  /** Ctrl+G: the draft in the user's editor, the terminal handed over meanwhile. */
  editExternally?: (text: string) => Promise<ExternalEditResult>;
  history?: { append(text: string): Promise<void>; loadRecent(): Promise<string[]> };
  /** Skills for the `$` popup, `$name` mentions and /skills (e.g. `() => listSkills(config.skillsDir)`). */
  loadSkills?: () => Promise<SkillInfo[]>;
  platform?: NodeJS.Platform;
  /** `/feedback` writes its diagnostic report here. */
  feedback: FeedbackSink;
  /** Where a desktop notification goes (the terminal); none without it. See attention.ts. */
  writeToTerminal?: (data: string) => void;
  /** The terminal's size now (/diff's explorer pages by it). */
  screenSize?: () => { columns: number; rows: number };
  initialInput?: InitialInput;
  /** The thread to open (default: a new one). */
  session?: SessionStart;
  /** `-m` as given: a resumed thread goes on with it (else with the model it had). */
  explicitModel?: string;
  /** Reads an image or audio file again (backtrack puts a prompt's attachments back); none: they are not. */
  probeAttachment?: AttachmentProbe;
  /** Unsent input saved by an earlier run (draft-journal.ts): put back at launch and by restoreFor. */
  draftJournal?: DraftJournalPort;
  /** Ctrl+T's pager (or /inspect's view) on screen: it has the keys while it is open. */
  overlay?: OverlayKeys;
}

/** The TUI's `initialize`: it is Tiller's own client, so it asks for Tiller's notifications and fields. */
export const TUI_INITIALIZE: InitializeParams = {
  clientInfo: { name: 'tiller', version: TILLER_VERSION },
  capabilities: { tillerExtensions: true },
};
