/**
 * End-to-end harness: runs the real `bin/tiller` in a pseudo-terminal (node-pty) and feeds every byte
 * it writes into a headless xterm, so tests read the screen a person would see and the terminal modes
 * the program left behind. The headless terminal's own replies (device reports) go back into the pty,
 * as a real terminal's would.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import xterm from '@xterm/headless';
import * as nodePty from '@lydell/node-pty';
import { withProjectTrust } from '../../src/runtime/project-trust.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'tiller');

export interface StartOptions {
  args?: string[];
  /** Added to a clean environment (PATH, HOME, LANG are kept; OPENAI_* from the outer env are not). */
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  cwd?: string;
  /** Run this argv instead of `node bin/tiller` (a peer client in the benchmarks). */
  command?: [string, ...string[]];
  /** Answer the background colour query (OSC 11) with this colour (`rgb:ffff/ffff/ffff`), as many terminals do; the headless terminal does not. */
  background?: string;
  /**
   * Leave the working directory without a trust decision, so Tiller asks (tui/onboarding); by default
   * the support records it as trusted in TILLER_HOME's config.toml first, as a user who answered once.
   */
  askTrust?: boolean;
}

export type KeyName =
  | 'enter'
  | 'shift-enter'
  | 'alt-enter'
  | 'ctrl-j'
  | 'esc'
  | 'tab'
  | 'shift-tab'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'delete'
  | 'backspace'
  | 'ctrl-a'
  | 'ctrl-c'
  | 'ctrl-d'
  | 'ctrl-e'
  | 'ctrl-g'
  | 'ctrl-k'
  | 'ctrl-l'
  | 'ctrl-o'
  | 'ctrl-r'
  | 'ctrl-t'
  | 'ctrl-u'
  | 'ctrl-v'
  | 'ctrl-y'
  | 'alt-up';

const KEYS: Record<KeyName, string> = {
  enter: '\r',
  'shift-enter': '\x1b[13;2u',
  'alt-enter': '\x1b\r',
  'ctrl-j': '\n',
  esc: '\x1b',
  tab: '\t',
  'shift-tab': '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  home: '\x1b[H',
  end: '\x1b[F',
  delete: '\x1b[3~',
  backspace: '\x7f',
  'ctrl-a': '\x01',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-e': '\x05',
  'ctrl-g': '\x07',
  'ctrl-k': '\x0b',
  'ctrl-l': '\x0c',
  'ctrl-o': '\x0f',
  'ctrl-r': '\x12',
  'ctrl-t': '\x14',
  'ctrl-u': '\x15',
  'ctrl-v': '\x16',
  'ctrl-y': '\x19',
  'alt-up': '\x1b[1;3A',
};

export type ScreenMatcher = string | RegExp | ((screen: string) => boolean);

export interface TillerPty {
  readonly pid: number;
  /** Visible lines joined with `\n`, trailing spaces trimmed. */
  screen(): string;
  /** Visible lines, trailing spaces trimmed. */
  lines(): string[];
  /** Scrollback and screen together (what a person can scroll through), trailing spaces trimmed. */
  scrollback(): string;
  /** Scrollback and screen as logical lines: rows the terminal wrapped (or re-flowed) joined again. */
  logicalText(): string;
  /** Resizes the terminal and the pty (the program gets SIGWINCH), as dragging the window does. */
  resize(cols: number, rows: number): void;
  /** Every window title the program set (OSC 0 / 2), in order. */
  titles(): string[];
  /** All output so far as raw bytes (for mode checks the headless terminal does not model). */
  raw(): string;
  /** Calls `listener` with each chunk of output as it arrives (benchmarks); returns the unsubscribe. */
  onOutput(listener: (data: string) => void): () => void;
  /**
   * Resolves with the screen once it matches as a whole frame (output quiet for `quietMs`, default
   * 25); looks again on every output and every 20 ms. The timeout error shows the screen.
   */
  waitFor(matcher: ScreenMatcher, timeoutMs?: number, options?: { quietMs?: number }): Promise<string>;
  /**
   * Resolves once the program has used no CPU for `quietMs` (default 100): its start-up work after
   * the first frame (the runtime loads then) is over. Reads /proc/<pid>/stat; where there is none,
   * waits 1 s instead.
   */
  idle(quietMs?: number, timeoutMs?: number): Promise<void>;
  write(raw: string): void;
  /** Types text one character per write, optionally `delayMs` apart. */
  type(text: string, delayMs?: number): Promise<void>;
  press(name: KeyName): void;
  /** A bracketed paste. */
  paste(text: string): void;
  /** Which screen the terminal shows: the normal one (with scrollback) or the alternate one. */
  bufferType(): 'normal' | 'alternate';
  modes(): xterm.IModes;
  /** The cursor's position on the visible screen (0-based). */
  cursor(): { x: number; y: number };
  /** The cursor once all output so far is drawn and no frame is half drawn (where a frame left it). */
  frameCursor(): Promise<{ x: number; y: number }>;
  exited(): boolean;
  exitCode(): number | null;
  waitForExit(timeoutMs?: number): Promise<number>;
  /** Sends Ctrl+C until the program exits (an empty composer quits), then returns the exit code. */
  exit(timeoutMs?: number): Promise<number>;
  /** Kills the process (if alive) and removes the temporary TILLER_HOME. Safe to call twice. */
  kill(): void;
}

const BEGIN_SYNC = '\x1b[?2026h';
const END_SYNC = '\x1b[?2026l';
/**
 * Output silence after which the screen counts as one whole frame: Ink's frames are known whole by
 * their synchronized update; this covers the rows Tiller prints above them.
 */
const FRAME_QUIET_MS = 15;
/** How long a match must hold while output keeps flowing. */
const STEADY_MATCH_MS = 300;
/** Without output, a matcher that reads other state (the process, the buffer type) is asked this often. */
const POLL_MS = 20;
/** Looks at the screen at most this often while output streams. */
const MIN_LOOK_MS = 4;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function matches(matcher: ScreenMatcher, screen: string): boolean {
  if (typeof matcher === 'string') return screen.includes(matcher);
  if (matcher instanceof RegExp) return matcher.test(screen);
  return matcher(screen);
}

/** User + system CPU time of a process in clock ticks (Linux), or null without /proc or once it is gone. */
function cpuTicks(pid: number): number | null {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Records `cwd` as trusted in `home`'s config.toml unless the file already decides it. */
function pretrust(home: string, cwd: string): void {
  const file = join(home, 'config.toml');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No config yet: the decision is its first table.
  }
  if (/^\s*\[projects\./m.test(text)) return;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(file, withProjectTrust(text, realpathSync(cwd), 'trusted'), { mode: 0o600 });
}

/**
 * Tests that run in the repository itself (the default cwd) do not checkpoint it: every such test has
 * a fresh home, so each would record the whole checkout again. Tests in a workspace of their own keep
 * checkpoints on, as a user has them.
 */
function noRepoCheckpoints(home: string): void {
  const file = join(home, 'config.toml');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // No config yet.
  }
  if (/^\s*checkpoints\s*=/m.test(text)) return;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(file, `checkpoints = false\n${text}`, { mode: 0o600 });
}

export function startTiller(options: StartOptions = {}): TillerPty {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const ownHome = options.env?.TILLER_HOME === undefined ? mkdtempSync(join(tmpdir(), 'tiller-e2e-')) : null;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpdir(),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    TILLER_OFFLINE_DELAY_MS: '0',
  };
  if (ownHome !== null) env.TILLER_HOME = ownHome;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  if (options.askTrust !== true && env.TILLER_HOME !== undefined) pretrust(env.TILLER_HOME, options.cwd ?? ROOT);
  if (env.TILLER_HOME !== undefined && (options.cwd ?? ROOT) === ROOT) noRepoCheckpoints(env.TILLER_HOME);

  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 10_000 });
  const [file, ...argv] = options.command ?? [process.execPath, BIN, ...(options.args ?? [])];
  const child = nodePty.spawn(file, argv, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd ?? ROOT,
    env,
  });
  const rawChunks: string[] = [];
  let code: number | null = null;
  let cleaned = false;
  const exitWaiters: Array<(code: number) => void> = [];

  const outputListeners = new Set<(data: string) => void>();
  // A waitFor sleeping until the next output (or its timer).
  const wakers = new Set<() => void>();
  let lastOutputAt = performance.now();
  // Ink wraps each frame in a synchronized update (DEC mode 2026): while one is open the screen is
  // half drawn, however long the pause before the rest of it (a loaded machine splits frames).
  let frameOpen = false;
  let tail = '';
  child.onData((data) => {
    if (cleaned) return;
    lastOutputAt = performance.now();
    const seen = tail + data;
    const begin = seen.lastIndexOf(BEGIN_SYNC);
    const end = seen.lastIndexOf(END_SYNC);
    if (begin !== end) frameOpen = begin > end;
    tail = seen.slice(-(BEGIN_SYNC.length - 1));
    rawChunks.push(data);
    term.write(data);
    if (options.background !== undefined && data.includes('\x1b]11;?')) child.write(`\x1b]11;${options.background}\x1b\\`);
    for (const listener of outputListeners) listener(data);
    for (const wake of wakers) wake();
  });
  const outputOrTimeout = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  // Device reports (cursor position, DA, kitty flag queries) answered like a real terminal.
  term.onData((data) => {
    if (code === null) child.write(data);
  });
  child.onExit(({ exitCode }) => {
    code = exitCode;
    for (const resolve of exitWaiters.splice(0)) resolve(exitCode);
  });

  const lines = (): string[] => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < term.rows; y++) {
      out.push(
        buffer
          .getLine(buffer.viewportY + y)
          ?.translateToString(true)
          .replace(/\s+$/, '') ?? '',
      );
    }
    return out;
  };
  const screen = (): string => lines().join('\n');
  const scrollback = (): string => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) out.push(buffer.getLine(y)?.translateToString(true).replace(/\s+$/, '') ?? '');
    return out.join('\n').replace(/\n+$/, '');
  };

  const logicalText = (): string => {
    const buffer = term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
      else out.push(text);
    }
    return out
      .map((l) => l.replace(/\s+$/, ''))
      .join('\n')
      .replace(/\n+$/, '');
  };
  const titles: string[] = [];
  term.onTitleChange((title) => titles.push(title));

  // xterm parses asynchronously; an empty write's callback runs once everything before it is parsed.
  const settle = (): Promise<void> => (cleaned ? Promise.resolve() : new Promise((resolve) => term.write('', resolve)));

  const pty: TillerPty = {
    pid: child.pid,
    screen,
    lines,
    scrollback,
    logicalText,
    resize(newCols, newRows) {
      term.resize(newCols, newRows);
      if (code === null) child.resize(newCols, newRows);
    },
    titles: () => [...titles],
    raw: () => rawChunks.join(''),
    onOutput(listener) {
      outputListeners.add(listener);
      return () => outputListeners.delete(listener);
    },
    async waitFor(matcher, timeoutMs = 15_000, { quietMs = FRAME_QUIET_MS } = {}) {
      const deadline = Date.now() + timeoutMs;
      let matchingSince: number | null = null;
      for (;;) {
        await settle();
        const current = screen();
        const lookedAt = performance.now();
        // A frame can reach the terminal in several reads: a match counts once output has paused,
        // so callers get a whole frame (what a person sees), never one drawn halfway. Under output
        // that never pauses (a fast stream), a match that holds for a while counts too.
        const matched = matches(matcher, current);
        if (!matched) matchingSince = null;
        else {
          matchingSince ??= lookedAt;
          if (!frameOpen && lookedAt - lastOutputAt >= quietMs) return current;
          if (lookedAt - matchingSince >= STEADY_MATCH_MS) return current;
        }
        if (Date.now() > deadline) {
          throw new Error(`waitFor(${String(matcher)}) timed out after ${timeoutMs} ms; screen:\n${current}`);
        }
        // Look again when output arrives, or once a matching screen has been quiet long enough.
        await outputOrTimeout(matched ? Math.max(1, quietMs - (lookedAt - lastOutputAt)) : POLL_MS);
        const since = performance.now() - lookedAt;
        if (since < MIN_LOOK_MS) await sleep(MIN_LOOK_MS - since);
      }
    },
    async idle(quietMs = 100, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      let before = cpuTicks(child.pid);
      if (before === null) return sleep(1_000);
      for (;;) {
        await sleep(quietMs);
        const now = cpuTicks(child.pid);
        if (now === null || now === before) return;
        if (Date.now() > deadline) throw new Error(`tiller still busy after ${timeoutMs} ms; screen:\n${screen()}`);
        before = now;
      }
    },
    write(raw) {
      if (code === null) child.write(raw);
    },
    async type(text, delayMs = 0) {
      for (const ch of text) {
        pty.write(ch);
        if (delayMs > 0) await sleep(delayMs);
      }
    },
    press(name) {
      pty.write(KEYS[name]);
    },
    paste(text) {
      pty.write(`\x1b[200~${text}\x1b[201~`);
    },
    modes: () => term.modes,
    bufferType: () => term.buffer.active.type,
    cursor: () => ({ x: term.buffer.active.cursorX, y: term.buffer.active.cursorY }),
    async frameCursor() {
      for (;;) {
        await settle();
        if (!frameOpen || cleaned) return pty.cursor();
        await outputOrTimeout(POLL_MS);
      }
    },
    exited: () => code !== null,
    exitCode: () => code,
    waitForExit(timeoutMs = 10_000) {
      if (code !== null) return settle().then(() => code!);
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`tiller did not exit within ${timeoutMs} ms; screen:\n${screen()}`)), timeoutMs);
        exitWaiters.push((exitCode) => {
          clearTimeout(timer);
          void settle().then(() => resolve(exitCode));
        });
      });
    },
    async exit(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (code === null && Date.now() < deadline) {
        pty.press('ctrl-c');
        await Promise.race([pty.waitForExit(300).catch(() => undefined), sleep(300)]);
      }
      return pty.waitForExit(Math.max(0, deadline - Date.now()));
    },
    kill() {
      // The whole process group: a checkpoint's git or a command Tiller started would outlive a
      // kill of Tiller alone and keep writing under the home being removed.
      for (const target of [-child.pid, child.pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (!cleaned) {
        cleaned = true;
        term.dispose();
        // A checkpoint's git may still be writing under the home as the app exits: retry as it finishes.
        if (ownHome !== null) rmSync(ownHome, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
      }
    },
  };
  return pty;
}
