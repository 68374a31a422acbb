/**
 * Sessions in the real bin: the resume line on exit, `tiller resume --last` / `-c` / the picker
 * bringing the transcript back and sending the whole history, and Esc-Esc editing an earlier
 * message in a fork whose next request carries only what came before it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeResponsesServer, type RecordedRequest } from '../support/fake-responses-server.js';
import { startTiller, type TillerPty } from '../support/pty.js';
import { composerText, lastUserText, typeSlowly, userTexts } from './helpers.js';

const RESUME_LINE = /To continue this session, run tiller resume ([0-9a-f-]{36})/;

let server: FakeResponsesServer;
let home: string;
let cwd: string;
let ptys: TillerPty[] = [];

beforeEach(async () => {
  server = await FakeResponsesServer.start();
  // Each answer names the message it answers, so the transcript and the history can be told apart.
  server.respondWith((request) => ({ text: `Answer to ${(lastUserText(request) ?? '').slice(0, 40)}.` }));
  home = mkdtempSync(join(tmpdir(), 'tiller-e2e-sessions-home-'));
  cwd = mkdtempSync(join(tmpdir(), 'tiller-e2e-sessions-cwd-'));
});

afterEach(async () => {
  for (const pty of ptys) pty.kill();
  ptys = [];
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

function start(args: string[] = []): TillerPty {
  const pty = startTiller({ args, cwd, env: { TILLER_HOME: home, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' } });
  ptys.push(pty);
  return pty;
}

/** Sends a message and waits for its answer to be on screen with the turn over. */
async function chat(pty: TillerPty, message: string): Promise<void> {
  await typeSlowly(pty, message);
  pty.press('enter');
  await pty.waitFor((s) => s.includes(`Answer to ${message.slice(0, 40)}.`) && !s.includes('esc to interrupt'));
}

/** Quits with Ctrl+C Ctrl+C on the empty composer; the thread id the resume line names. */
async function quit(pty: TillerPty): Promise<string> {
  pty.press('ctrl-c');
  await pty.waitFor('press Ctrl+C again to quit');
  pty.press('ctrl-c');
  expect(await pty.waitForExit()).toBe(0);
  const id = RESUME_LINE.exec(pty.scrollback())?.[1];
  if (id === undefined) throw new Error(`no resume line; screen:\n${pty.scrollback()}`);
  return id;
}

/** A session of one or more messages in a first run, quit; its thread id. */
async function seed(...messages: string[]): Promise<string> {
  const pty = start();
  await pty.waitFor('Ask Tiller to do anything');
  for (const message of messages) await chat(pty, message);
  return quit(pty);
}

/** One `tiller exec` run in the same directory and home (async: the fake server answers in this process). */
async function execRun(prompt: string): Promise<void> {
  await promisify(execFile)(process.execPath, [join(__dirname, '../../bin/tiller'), 'exec', '--skip-git-repo-check', prompt], {
    cwd,
    env: { ...process.env, TILLER_HOME: home, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'dummy' },
  });
}

function assistantTexts(request: RecordedRequest): string[] {
  const input: Array<Record<string, unknown>> = Array.isArray(request.body?.input) ? request.body.input : [];
  return input
    .filter((item) => item.type === 'message' && item.role === 'assistant' && Array.isArray(item.content))
    .flatMap((item) => (item.content as Array<Record<string, unknown>>).map((part) => String(part.text ?? '')));
}

function rollouts(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/^rollout-.*\.jsonl$/.test(entry.name)) out.push(entry.name);
    }
  };
  walk(join(home, 'sessions'));
  return out;
}

describe('sessions in the terminal', { timeout: 90_000 }, () => {
  it('quitting a chat prints how to resume it, after the UI; a chat with no message prints nothing', async () => {
    const id = await seed('first question');
    expect(rollouts().some((name) => name.endsWith(`-${id}.jsonl`))).toBe(true);
    const empty = start();
    await empty.waitFor('Ask Tiller to do anything');
    empty.press('ctrl-c');
    empty.press('ctrl-c');
    expect(await empty.waitForExit()).toBe(0);
    expect(empty.scrollback()).not.toMatch(RESUME_LINE);
  });

  it('tiller resume --last: the transcript is back and the next request carries the whole history', async () => {
    const id = await seed('first question', 'second question');
    const before = server.requests.length;
    const pty = start(['resume', '--last']);
    const screen = await pty.waitFor((s) => s.includes('Answer to second question.') && s.includes('Ask Tiller to do anything'));
    expect(screen).toContain('› first question');
    expect(screen).toContain('Answer to first question.');
    expect(screen).toContain('› second question');
    await chat(pty, 'third question');
    const request = server.requests[before]!;
    expect(userTexts(request)).toEqual(['first question', 'second question', 'third question']);
    expect(assistantTexts(request)).toEqual(['Answer to first question.', 'Answer to second question.']);
    // The same thread goes on: the resume line names it again, and no new rollout was made.
    expect(await quit(pty)).toBe(id);
    expect(rollouts()).toHaveLength(1);
  });

  it('-c resumes the latest session of this directory', async () => {
    await seed('older one');
    const latest = await seed('newer one');
    const pty = start(['-c']);
    await pty.waitFor((s) => s.includes('Answer to newer one.') && s.includes('Ask Tiller to do anything'));
    expect(pty.screen()).not.toContain('older one');
    await chat(pty, 'and more');
    expect(userTexts(server.requests.at(-1)!)).toEqual(['newer one', 'and more']);
    expect(await quit(pty)).toBe(latest);
  });

  it('-c and resume --last prefer the interactive session to a later tiller exec run; the picker marks the run and a fork', async () => {
    const chatId = await seed('typed by a person');
    await execRun('run by a script');
    for (const args of [['-c'], ['resume', '--last']]) {
      const pty = start(args);
      const screen = await pty.waitFor((s) => s.includes('Answer to typed by a person.') && s.includes('Ask Tiller to do anything'));
      expect(screen).not.toContain('run by a script');
      if (args[0] === '-c') {
        await typeSlowly(pty, '/fork');
        pty.press('enter');
        await pty.waitFor('Forked this conversation into session');
      }
      pty.press('ctrl-c');
      await pty.waitFor('press Ctrl+C again to quit');
      pty.press('ctrl-c');
      expect(await pty.waitForExit()).toBe(0);
    }
    const picker = start(['resume']);
    const screen = await picker.waitFor((s) => s.includes('[exec] run by a script') && s.includes('[fork of …'));
    expect(screen).toContain(`[fork of …${chatId.slice(-8)}] typed by a person`);
    picker.press('esc');
    expect(await picker.waitForExit()).toBe(0);
  });

  it('tiller resume with an unknown id says so on stderr and exits 2; the prompt given is not sent and not lost', async () => {
    const pty = start(['resume', '1234', 'my unsent prompt']);
    expect(await pty.waitForExit()).toBe(2);
    const out = pty.scrollback();
    expect(out).toContain("tiller: no saved session with id 1234; 'tiller resume' lists the saved sessions.");
    expect(out).toContain('The prompt was not sent: my unsent prompt');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(home, 'sessions'))).toBe(false);
  });

  it('tiller resume: a picker of the sessions; typing filters, Enter resumes the one chosen; Esc leaves', async () => {
    const alpha = await seed('alpha question');
    await seed('beta question');
    const pty = start(['resume']);
    const picker = await pty.waitFor(
      (s) => s.includes('Resume a previous session') && s.includes('beta question') && s.includes('alpha question'),
    );
    // Newest first.
    expect(picker.indexOf('beta question')).toBeLessThan(picker.indexOf('alpha question'));
    await typeSlowlyIntoPicker(pty, 'alph');
    await pty.waitFor((s) => s.includes('search: alph') && !s.includes('beta question'));
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Answer to alpha question.') && s.includes('Ask Tiller to do anything'));
    await chat(pty, 'alpha again');
    expect(userTexts(server.requests.at(-1)!)).toEqual(['alpha question', 'alpha again']);
    expect(await quit(pty)).toBe(alpha);

    const cancelled = start(['resume']);
    await cancelled.waitFor('Resume a previous session');
    cancelled.press('esc');
    expect(await cancelled.waitForExit()).toBe(0);
    expect(cancelled.scrollback()).not.toMatch(RESUME_LINE);
  });

  it('Esc Esc edits an earlier message: a fork with only what came before it, the paste back as a placeholder', async () => {
    const paste = 'the pasted log line\n'.repeat(60);
    const pty = start();
    await pty.waitFor('Ask Tiller to do anything');
    await chat(pty, 'one');
    pty.paste(paste);
    await pty.waitFor('[Pasted Content 1200 chars]');
    await typeSlowly(pty, ' two');
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Answer to the pasted log line') && !s.includes('esc to interrupt'));
    await chat(pty, 'three');

    pty.press('esc');
    await pty.waitFor('esc again to edit previous message');
    pty.press('esc');
    const opened = await pty.waitFor((s) => pty.bufferType() === 'alternate' && s.includes('esc/← older'));
    const bar = (screen: string): string => screen.split('\n').at(-1)!;
    pty.press('esc');
    // The second prompt is highlighted and scrolled to the top of the view (an Esc and an Enter
    // read together would be Alt+Enter).
    const stepped = await pty.waitFor((s) => bar(s) !== bar(opened));
    expect(stepped.split('\n')[0]).toBe('› the pasted log line');
    pty.press('enter');
    const back = await pty.waitFor((s) => pty.bufferType() === 'normal' && s.includes('Editing an earlier message'));
    expect(back).toContain('Answer to one.');
    expect(back).not.toContain('Answer to three.');
    expect(composerText(back)).toBe('[Pasted Content 1200 chars] two');
    await typeSlowly(pty, ' edited');
    const before = server.requests.length;
    pty.press('enter');
    await pty.waitFor((s) => s.includes('Answer to the pasted log line') && !s.includes('esc to interrupt') && s.includes('edited'));
    const request = server.requests[before]!;
    expect(userTexts(request)).toEqual(['one', `${paste} two edited`]);
    expect(assistantTexts(request)).toEqual(['Answer to one.']);
    // The old branch is a session of its own, next to the fork.
    const fork = await quit(pty);
    expect(rollouts()).toHaveLength(2);
    expect(rollouts().some((name) => name.endsWith(`-${fork}.jsonl`))).toBe(true);
  });
});

/** The picker has no caret to watch: each character waits for the search line to show it. */
async function typeSlowlyIntoPicker(pty: TillerPty, text: string): Promise<void> {
  for (let i = 1; i <= text.length; i++) {
    pty.write(text[i - 1]!);
    await pty.waitFor(`search: ${text.slice(0, i)}`);
  }
}
