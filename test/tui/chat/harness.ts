/**
 * Drives a ChatController with key events against a FakeAppServerClient, an injected clock and
 * scheduler, and fake local effects (shell, clipboard, file search).
 */
import { expect, vi } from 'vitest';
import type { V2UserInput } from '../../../src/protocol/api.js';
import type { MediaProbe } from '../../../src/tui/composer/types.js';
import { initialComposerState } from '../../../src/tui/composer/state.js';
import { charKey, key, type InputEvent, type KeyName, type KeyEvent } from '../../../src/tui/keys/types.js';
import { ChatController, type ChatControllerOptions } from '../../../src/tui/chat/controller.js';
import { createChatStore, type ChatStore } from '../../../src/tui/store.js';
import { FakeAppServerClient, turn } from './fake-client.js';

export class FakeClock {
  now = 1_000_000;
  private seq = 0;
  private tasks: { at: number; seq: number; fn: () => void }[] = [];

  schedule = (fn: () => void, ms: number): (() => void) => {
    const task = { at: this.now + ms, seq: this.seq++, fn };
    this.tasks.push(task);
    return () => {
      this.tasks = this.tasks.filter((t) => t !== task);
    };
  };

  get pending(): number {
    return this.tasks.length;
  }

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = this.tasks.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.tasks = this.tasks.filter((t) => t !== due);
      this.now = Math.max(this.now, due.at);
      due.fn();
    }
    this.now = end;
  }
}

export const PNG_ATTACHMENT = {
  kind: 'image' as const,
  path: '/tmp/a.png',
  fileName: 'a.png',
  bytes: 100,
  width: 2,
  height: 2,
  mime: 'image/png',
};

/** The params of the server's approval request for `rm -rf build` in turn-1. */
export const COMMAND_APPROVAL_PARAMS = {
  threadId: 'thread-1',
  turnId: 'turn-1',
  itemId: 'c1',
  startedAtMs: 0,
  command: 'rm -rf build',
  commandActions: [],
  cwd: '/work',
  reason: null,
};

export const probeMedia: MediaProbe = (pasted) => (pasted.trim() === '/tmp/a.png' ? PNG_ATTACHMENT : null);

export interface Harness {
  client: FakeAppServerClient;
  store: ChatStore;
  clock: FakeClock;
  ctrl: ChatController;
  shell: ReturnType<typeof vi.fn>;
  history: { append: ReturnType<typeof vi.fn>; loadRecent: ReturnType<typeof vi.fn> };
  /** Types text one key at a time, 30 ms apart (slower than a paste burst). */
  type(text: string): void;
  press(name: KeyName, mods?: Partial<Omit<KeyEvent, 'type' | 'name'>>): void;
  ctrlKey(ch: string): void;
  input(event: InputEvent): void;
  paste(text: string): void;
  /** Waits for requests in flight and promise callbacks. */
  settle(): Promise<void>;
  composerText(): string;
  cellTexts(): string[];
  startTurn(id: string): void;
  completeTurn(id: string, status?: 'completed' | 'interrupted' | 'failed', message?: string): void;
}

/** Feedback reports kept in memory (a test that checks them passes its own sink). */
export const TEST_FEEDBACK: ChatControllerOptions['feedback'] = {
  environment: () => ({ platform: 'linux', arch: 'x64', nodeVersion: 'v20', term: 'xterm', termProgram: null, columns: 80, rows: 24 }),
  save: () => '/tmp/feedback.json',
};

export async function createHarness(
  options: {
    config?: Partial<ChatControllerOptions['config']>;
    client?: FakeAppServerClient;
    vimEnabled?: boolean;
    platform?: NodeJS.Platform;
    /** Leave ctrl.start() to the test. */
    deferStart?: boolean;
    clipboard?: ChatControllerOptions['readClipboardImage'];
    searchFiles?: ChatControllerOptions['searchFiles'];
    loadSkills?: ChatControllerOptions['loadSkills'];
    feedback?: ChatControllerOptions['feedback'];
    copyToClipboard?: ChatControllerOptions['copyToClipboard'];
    writeToTerminal?: ChatControllerOptions['writeToTerminal'];
    cwd?: string;
    initialInput?: ChatControllerOptions['initialInput'];
    session?: ChatControllerOptions['session'];
    explicitModel?: string;
    probeAttachment?: ChatControllerOptions['probeAttachment'];
  } = {},
): Promise<Harness> {
  const client = options.client ?? new FakeAppServerClient();
  const clock = new FakeClock();
  const store = createChatStore(initialComposerState({ vimEnabled: options.vimEnabled ?? false, probeMedia, platform: 'linux' }));
  const shell = vi.fn(async (cmd: string) => ({ output: `ran ${cmd}`, exitCode: 0 }));
  const history = { append: vi.fn(async () => undefined), loadRecent: vi.fn(async () => [] as string[]) };
  const ctrl = new ChatController({
    client,
    store,
    config: {
      model: 'fake-model',
      reasoningEffort: null,
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      sandboxWritableRoots: [],
      sandboxNetworkAccess: false,
      modelSupportsImages: true,
      vimModeDefault: options.vimEnabled ?? false,
      warnings: [],
      ...options.config,
    },
    cwd: options.cwd ?? '/work',
    now: () => clock.now,
    schedule: clock.schedule,
    runLocalShell: shell,
    readClipboardImage: options.clipboard ?? (async () => ({ error: 'No image on the clipboard.' })),
    searchFiles: options.searchFiles ?? (async () => []),
    history,
    platform: options.platform ?? 'linux',
    feedback: options.feedback ?? TEST_FEEDBACK,
    ...(options.loadSkills !== undefined ? { loadSkills: options.loadSkills } : {}),
    ...(options.copyToClipboard !== undefined ? { copyToClipboard: options.copyToClipboard } : {}),
    ...(options.writeToTerminal !== undefined ? { writeToTerminal: options.writeToTerminal } : {}),
    ...(options.initialInput !== undefined ? { initialInput: options.initialInput } : {}),
    ...(options.session !== undefined ? { session: options.session } : {}),
    ...(options.explicitModel !== undefined ? { explicitModel: options.explicitModel } : {}),
    ...(options.probeAttachment !== undefined ? { probeAttachment: options.probeAttachment } : {}),
  });
  if (options.deferStart !== true) await ctrl.start();
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) {
      await ctrl.idle();
      await new Promise((r) => setImmediate(r));
    }
  };
  const h: Harness = {
    client,
    store,
    clock,
    ctrl,
    shell,
    history,
    input: (e) => ctrl.handleInput(e),
    type: (text) => {
      for (const ch of text) {
        clock.advance(30);
        ctrl.handleInput(ch === '\n' ? key('enter') : charKey(ch));
      }
      clock.advance(30);
    },
    press: (name, mods = {}) => {
      clock.advance(30);
      ctrl.handleInput(key(name, mods));
    },
    ctrlKey: (ch) => {
      clock.advance(30);
      ctrl.handleInput(charKey(ch, { ctrl: true }));
    },
    paste: (text) => {
      clock.advance(30);
      ctrl.handleInput({ type: 'paste', text });
    },
    settle,
    composerText: () => {
      const c = store.getState().composer;
      return (c.bashMode ? '!' : '') + c.ta.text;
    },
    cellTexts: () =>
      store.getState().cells.map((c) => {
        switch (c.kind) {
          case 'user':
            return `› ${c.text}`;
          case 'agent':
            return `agent: ${c.markdown}`;
          case 'command':
            return `$ ${c.command} [${c.status}] ${c.output}`;
          case 'info':
            return `• ${c.text}${c.hint ? ` (${c.hint})` : ''}`;
          case 'error':
            return `■ ${c.text}`;
          case 'warning':
            return `⚠ ${c.text}`;
          case 'header':
            return `header: ${c.model} · ${c.provider} · ${c.directory} · ${c.approvals}`;
          case 'mcp':
            return `mcp ${c.server}.${c.tool}(${c.arguments}) [${c.status}]${c.result === null ? '' : ` ${c.result.kind === 'text' ? c.result.text : c.result.kind === 'error' ? `error: ${c.result.message}` : `${c.result.count} items`}`}`;
          case 'mcpServers':
            return `mcp servers: ${c.servers.map((s) => `${s.name} ${s.status}`).join(', ')}`;
          case 'reasoning':
            return `thinking: ${c.text}`;
          case 'imageView':
            return `image: ${c.path}`;
          case 'webSearch':
            return `web search: ${c.query}`;
          case 'plan':
            return `plan: ${c.steps.map((s) => `[${s.status}] ${s.step}`).join('; ')}`;
          case 'patch':
            return `patch [${c.status}] ${c.files.map((f) => `${f.kind} ${f.path} +${f.added} -${f.removed}`).join(', ')}`;
          case 'review':
            return `review: ${c.explanation} | ${c.findings.map((f) => f.title).join('; ')}`;
          case 'commandChanges':
            return `changed by commands: ${c.files.map((f) => `${f.kind} ${f.path} +${f.added} -${f.removed}`).join(', ')}`;
        }
      }),
    startTurn: (id) => client.emit('turn/started', { threadId: 'thread-1', turn: turn(id) }),
    completeTurn: (id, status = 'completed', message) =>
      client.emit('turn/completed', {
        threadId: 'thread-1',
        turn: turn(id, status, message === undefined ? null : { message, codexErrorInfo: null, additionalDetails: null }),
      }),
  };
  if (options.deferStart !== true) await settle();
  return h;
}

export const text = (t: string): V2UserInput => ({ type: 'text', text: t, text_elements: [] });

/** Idle → `first` sent and its turn started as turn-1. */
export async function running(h: Harness, first = 'first'): Promise<void> {
  h.type(first);
  h.press('enter');
  await h.settle();
  h.startTurn('turn-1');
}

/** The server records a user message in `turnId` (what commits a pending steer). */
export function userMessage(h: Harness, turnId: string, t: string): void {
  h.client.emit('item/completed', {
    threadId: 'thread-1',
    turnId,
    completedAtMs: 0,
    item: { type: 'userMessage', id: 'u', content: [text(t)] },
  });
}

/** After an interrupt key: the interrupt reaches turn-1, which then ends as interrupted. */
export async function interruptTurnOne(h: Harness): Promise<void> {
  await h.settle();
  expect(h.client.requestsOf('turn/interrupt')).toEqual([{ threadId: 'thread-1', turnId: 'turn-1' }]);
  h.completeTurn('turn-1', 'interrupted');
  await h.settle();
}
