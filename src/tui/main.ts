/**
 * `tiller` (no command): the interactive chat screen. Wires raw stdin → KeyParser → ChatController →
 * store → Ink. Terminal modes (bracketed paste, keyboard protocol) are switched on here and restored
 * on every way out: quit, Ctrl+C on an empty composer, an uncaught error, SIGTERM, SIGHUP.
 */
import { homedir, tmpdir } from 'node:os';
import { render } from 'ink';
import { createElement } from 'react';
import { imageFileProblem } from '../protocol/image-file-check.js';
import type { TuiArgs } from '../runtime/cli-args.js';
import { writeProjectTrust, trustTarget } from '../runtime/project-trust.js';
import { askTrust } from './onboarding/ask-trust.js';
import { isOffline, loadConfigOrReport, providerLabel, type TillerConfig } from '../runtime/config.js';
import { TILLER_VERSION } from '../version.js';
import { App } from './app.js';
import { forTmux } from './chat/attention.js';
import { ChatController, type ChatControllerOptions, type InitialInput } from './chat/controller.js';
import { DraftJournal } from './chat/sessions/draft-journal.js';
import { writeFeedbackReport } from './chat/commands/feedback.js';
import { sessionHeaderCell } from './chat/sessions/session-header.js';
import { HistoryFile, historyFilePath } from './composer/history.js';
import { initialComposerState } from './composer/reducer.js';
import { warmSubmission } from './composer/warm.js';
import { KeyParser } from './keys/parser.js';
import { lazyAppServerClient } from './lazy-client.js';
import type { InputEvent, TerminalEvent } from './keys/types.js';
import { createMediaProbe, probeMediaFile } from './media/probe.js';
import { attachTranscriptPager } from './overlay/pager-screen.js';
import { createChatStore, withCells, type ChatStore, type NewCell } from './store.js';
import { editInExternalEditor, type TerminalHandoff } from './terminal/external-editor.js';
import { inkStdout } from './terminal/ink-stdout.js';
import { BACKGROUND_QUERY, setTheme, themeForBackground } from './theme.js';
import { enableTerminalModes, installExitGuards } from './terminal/modes.js';

export const NOT_A_TTY_MESSAGE =
  "tiller: the interactive UI needs a terminal (stdin and stdout must be a TTY); use 'tiller exec PROMPT' for scripts\n";

export { parseTuiArgs, type TuiArgs } from '../runtime/cli-args.js';

/**
 * The UI, once cli.ts has parsed its arguments (src/runtime/cli-args.ts) and entered `-C`'s directory:
 * `images` are absolute. An image that is not one is a usage error (2), as is a config that
 * cannot be used; with no terminal, 1.
 */
export async function runTui(args: TuiArgs, images: readonly string[]): Promise<number> {
  const attachments: InitialInput['attachments'] = [];
  for (const path of images) {
    const attachment = probeMediaFile(path);
    if (attachment?.kind !== 'image') {
      // The probe says only that it is no image; the check says why (a missing file first of all).
      const problem = imageFileProblem(path) ?? 'not an image file (PNG, JPEG, GIF or WebP)';
      process.stderr.write(`tiller: --image: ${problem}: ${path}. Try 'tiller --help'.\n`);
      return 2;
    }
    attachments.push(attachment);
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(NOT_A_TTY_MESSAGE);
    return 1;
  }
  let overrides = args.overrides;
  if (args.config !== undefined) {
    const checked = (await import('../runtime/exec/config-overrides.js')).checkOverrides(args.config, '--config');
    if (checked.error !== null) {
      process.stderr.write(`tiller: ${checked.error}\n`);
      return 2;
    }
    for (const warning of checked.warnings) process.stderr.write(`tiller: ${warning}\n`);
    overrides = {
      ...overrides,
      ...(Object.keys(checked.table).length > 0 ? { config: checked.table } : {}),
      ...(overrides.baseUrl === undefined && checked.baseUrl !== undefined ? { baseUrl: checked.baseUrl } : {}),
    };
  }
  if (overrides.oss) {
    const oss = await (await import('../runtime/oss.js')).resolveOss(overrides);
    if ('error' in oss) {
      process.stderr.write(`tiller: ${oss.error}\n`);
      return 2;
    }
    overrides = oss.overrides;
  }
  let config = loadConfigOrReport(overrides);
  if (config === null) return 2;
  // As Codex: asked once in a directory with no decision, unless the policy was chosen explicitly.
  if (config.projectTrust === null && config.policyExplicit !== true) {
    const level = await askTrust(process.stdin, process.stdout, process.cwd());
    if (level === null) return 0;
    let saved = true;
    try {
      writeProjectTrust(config.home, trustTarget(process.cwd()), level);
    } catch (error) {
      saved = false;
      process.stderr.write(`tiller: could not save the trust decision in config.toml: ${(error as Error).message}\n`);
    }
    config = loadConfigOrReport(overrides);
    if (config === null) return 2;
    // Unsaved, the answer still holds for this session.
    if (!saved && level === 'untrusted') config = { ...config, projectTrust: level, approvalPolicy: 'untrusted' };
  }
  const initialInput = args.prompt !== undefined || attachments.length > 0 ? { text: args.prompt ?? '', attachments } : undefined;
  const session: ChatControllerOptions['session'] = args.session ?? { kind: 'new' };
  return runChat(config, initialInput, { session, ...(args.overrides.model !== undefined ? { explicitModel: args.overrides.model } : {}) });
}

/** How many transcript turns TILLER_BENCH_PREFILL puts on screen before the first frame (bench only). */
function benchPrefill(store: ChatStore, turns: number): void {
  const cells: NewCell[] = [];
  for (let i = 1; i <= turns; i++) {
    cells.push({ kind: 'user', text: `Question number ${i}`, textElements: [], attachmentLabels: [], turnId: null });
    cells.push({ kind: 'agent', markdown: `Answer number ${i}: **done**, with \`code\` and a list:\n\n- one\n- two` });
  }
  store.setState((s) => withCells(s, cells));
}

/**
 * The controller's timers. Each fires after the input already waiting has been read (setImmediate
 * runs after the poll phase): a paste still arriving in a terminal without bracketed paste extends
 * its burst instead of being cut by the burst's own idle timer while Tiller was busy.
 */
const schedule = (fn: () => void, ms: number): (() => void) => {
  let immediate: NodeJS.Immediate | null = null;
  const timer = setTimeout(() => {
    immediate = setImmediate(fn);
  }, ms);
  return () => {
    clearTimeout(timer);
    if (immediate !== null) clearImmediate(immediate);
  };
};

async function runChat(
  config: TillerConfig,
  initialInput: InitialInput | undefined,
  opening: Pick<ChatControllerOptions, 'session' | 'explicitModel'>,
): Promise<number> {
  const cwd = process.cwd();
  const home = homedir();
  const now = (): number => Date.now();
  const probeMedia = createMediaProbe({ cwd, home });
  const historyFile = new HistoryFile(historyFilePath(config.home));
  const composer = initialComposerState({ vimEnabled: config.vimModeDefault, vimEscapeSequence: config.vimEscapeSequence, probeMedia });
  const store = createChatStore(composer, { model: config.model, offline: isOffline(config), cwd, effort: config.reasoningEffort });
  // The header: printed once, the first cell of the scrollback (not again on /new).
  const header = sessionHeaderCell({
    version: TILLER_VERSION,
    model: config.model,
    effort: config.reasoningEffort,
    providerLabel: providerLabel(config),
    offline: isOffline(config),
    cwd,
    home,
    approvalMode: { approvalPolicy: config.approvalPolicy, sandboxMode: config.sandboxMode },
    profile: config.profile,
  });
  store.setState((s) => withCells(s, [header]));
  const prefill = Number(process.env.TILLER_BENCH_PREFILL);
  if (Number.isInteger(prefill) && prefill > 0) benchPrefill(store, prefill);

  // Filled in once stdin and the screen are set up (below); Ctrl+G cannot come before that.
  const editorHandoff: TerminalHandoff = { suspend: () => undefined, resume: () => undefined };
  // What is typed and not sent survives a crash or a closed terminal (chat/draft-journal.ts).
  const journal = new DraftJournal({
    home: config.home,
    cwd,
    store,
    now,
    schedule,
    tmpDir: tmpdir(),
    warn: (text) => store.setState((s) => withCells(s, [{ kind: 'warning', text }])),
  });
  journal.start();
  const stdin = process.stdin;
  const stdout = process.stdout;
  // Its keys come first in the controller's chain while it is open.
  const pager = attachTranscriptPager(store, stdout);
  const client = lazyAppServerClient(async () =>
    (await import('../runtime/app-server.js')).createInProcessAppServer({ config, cwd, source: 'cli' }),
  );
  const controller = new ChatController({
    client,
    store,
    config,
    cwd,
    now,
    schedule,
    readClipboardImage: async () => {
      const { readClipboardImage } = await import('./media/clipboard.js');
      const result = await readClipboardImage({ env: process.env, platform: process.platform, tmpDir: tmpdir() });
      return 'error' in result ? { error: result.error } : { attachment: result.attachment };
    },
    searchFiles: async (query, opts) => (await import('./composer/file-search.js')).searchFiles(cwd, query, opts),
    copyToClipboard: async (text) =>
      (await import('./terminal/clipboard-copy.js')).copyToClipboard(text, {
        env: process.env,
        platform: process.platform,
        writeToTerminal: (data) => process.stdout.write(data),
      }),
    editExternally: (text) => editInExternalEditor(text, { env: process.env, tmpDir: tmpdir(), terminal: editorHandoff }),
    history: { append: (text) => historyFile.append(text), loadRecent: () => historyFile.loadRecent() },
    // Lazily: the skill list parses YAML front matter, which the first frame does not need.
    loadSkills: async () => (await import('./chat/commands/skills.js')).listSkills(config.skillsDir),
    // Desktop notifications (chat/attention.ts), through tmux's passthrough inside tmux.
    writeToTerminal: (data) => process.stdout.write(process.env.TMUX ? forTmux(data) : data),
    screenSize: () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }),
    ...(initialInput !== undefined ? { initialInput } : {}),
    ...opening,
    probeAttachment: probeMediaFile,
    draftJournal: journal,
    overlay: pager,
    feedback: {
      environment: () => ({
        platform: process.platform,
        arch: process.arch,
        nodeVersion: process.version,
        term: process.env.TERM ?? null,
        termProgram: process.env.TERM_PROGRAM ?? null,
        columns: process.stdout.columns ?? null,
        rows: process.stdout.rows ?? null,
      }),
      save: (report) => writeFeedbackReport(config.home, report),
    },
  });

  let restoreModes = enableTerminalModes(stdout, { stdin });
  // `auto`: dark until the terminal names a light background (most answer within a few ms; some never do).
  const themeSetting = config.theme ?? 'auto';
  if (themeSetting === 'auto') stdout.write(BACKGROUND_QUERY);
  else setTheme(themeSetting);
  stdin.setRawMode(true);
  // Every way out leaves the transcript pager's alternate screen too, and the unsent draft on disk.
  const restore = (): void => {
    journal.close();
    pager.dispose();
    restoreModes();
  };
  let removeExitGuards = installExitGuards(restore);

  const onComposerWidth = (width: number): void => controller.setComposerWidth(width);
  const ink = render(createElement(App, { store, now, onComposerWidth }), {
    stdout: inkStdout(stdout),
    exitOnCtrlC: false,
    patchConsole: false,
    // Unthrottled: each commit is drawn at once, so the frame is on screen before the scrollback rows
    // of the same commit are written above it (the store already gets deltas at most once a frame).
    maxFps: 0,
    // Ink 6.8's incremental mode leaves stale rows behind with a placed cursor (seen in tmux), so
    // every frame redraws the live area in full; it is small.
    incrementalRendering: false,
  });

  const parser = new KeyParser();
  let escTimer: NodeJS.Timeout | null = null;
  // One render for a whole read: an unbracketed paste is thousands of key events in one chunk.
  const deliver = (events: TerminalEvent[], at: number): void =>
    store.batch(() => {
      deliverEach(events, at);
      controller.inputRead();
    });
  const deliverEach = (events: TerminalEvent[], at: number): void => {
    let inputs: InputEvent[] = [];
    for (const event of events) {
      if (event.type !== 'focus' && event.type !== 'background') {
        inputs.push(event);
        continue;
      }
      controller.handleInputs(inputs, at);
      inputs = [];
      if (event.type === 'focus') controller.setFocused(event.focused);
      else if (themeSetting === 'auto') setTheme(themeForBackground(event.rgb));
    }
    controller.handleInputs(inputs, at);
  };
  const armEscTimer = (): void => {
    if (escTimer !== null) clearTimeout(escTimer);
    escTimer = null;
    const wait = parser.pendingTimeoutMs(now());
    if (wait === null) return;
    escTimer = setTimeout(() => {
      escTimer = null;
      const at = now();
      deliver(parser.flushTimeout(at), at);
      armEscTimer();
    }, wait);
  };
  const onData = (chunk: Buffer): void => {
    const at = now();
    deliver(parser.feed(chunk, at), at);
    armEscTimer();
  };
  stdin.on('data', onData);
  stdin.resume();

  // Ctrl+G hands the terminal to the editor: the screen holds still (the App renders nothing new), our
  // input and modes are off, and Ctrl+C there stops only the editor. Everything comes back after.
  const ignoreInterrupt = (): void => undefined;
  editorHandoff.suspend = () => {
    store.setState({ screenSuspended: true });
    stdin.off('data', onData);
    removeExitGuards();
    restoreModes();
    stdin.pause();
    process.on('SIGINT', ignoreInterrupt);
  };
  editorHandoff.resume = () => {
    process.off('SIGINT', ignoreInterrupt);
    restoreModes = enableTerminalModes(stdout, { stdin });
    removeExitGuards = installExitGuards(restore);
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
    store.setState({ screenSuspended: false });
  };

  const exited = new Promise<void>((resolve) => {
    if (store.getState().exitRequested) resolve();
    const unsubscribe = store.subscribe((s) => {
      if (s.exitRequested) {
        unsubscribe();
        resolve();
      }
    });
  });
  // In the pause after the first frame, so the first Enter does not compile the reducer (composer/warm.ts).
  setTimeout(() => warmSubmission(store.getState().composer, now()), 0).unref();
  await controller.start();
  await exited;
  journal.close();

  stdin.off('data', onData);
  if (escTimer !== null) clearTimeout(escTimer);
  controller.dispose();
  ink.unmount();
  await ink.waitUntilExit().catch(() => undefined);
  restore();
  stdin.pause();
  // With raw mode off, another Ctrl+C is a SIGINT. The user has already quit: it must not turn the
  // exit into 130 while the bounded flush below finishes.
  removeExitGuards();
  process.on('SIGINT', ignoreInterrupt);
  // After the UI and the terminal modes are gone, so it stays in the scrollback under the last frame.
  const exitLine = controller.exitLine();
  if (exitLine !== null) stdout.write(`${exitLine}\n`);
  const failure = controller.sessions.launchFailure();
  // The prompt given on the command line was not sent: it is not lost either.
  const unsent = initialInput === undefined || initialInput.text.trim() === '' ? '' : `The prompt was not sent: ${initialInput.text}\n`;
  if (failure !== null) process.stderr.write(`${failure}\n${unsent}`);
  await Promise.race([
    Promise.all([client.close(), historyFile.flush(), journal.idle()]),
    new Promise((resolve) => setTimeout(resolve, 500).unref()),
  ]);
  // Anything still holding the event loop (a stuck request, a child process) must not keep us alive.
  setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
  return failure === null ? 0 : 2;
}
