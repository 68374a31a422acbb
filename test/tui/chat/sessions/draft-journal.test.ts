/**
 * The draft journal on disk (chat/draft-journal.ts): one write per 250 ms window by atomic replace,
 * 0600 files in 0700 directories, removal when nothing is unsent, the thread's file once it has had a
 * turn, temporary attachments copied, a synchronous write at close, and trouble (an unwritable home,
 * a damaged file) reported without stopping anything.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cwdDraftPrefix, DraftJournal, JOURNAL_DELAY_MS, threadDraftFile } from '../../../../src/tui/chat/sessions/draft-journal.js';
import {
  decodeDraftDocument,
  encodeDraftDocument,
  unsentInputOf,
  type DraftDocument,
} from '../../../../src/tui/composer/draft-snapshot.js';
import { initialComposerState } from '../../../../src/tui/composer/state.js';
import { createChatStore, type ChatStore } from '../../../../src/tui/store.js';
import { Driver, image, noMedia } from '../../composer/driver.js';
import { FakeClock } from '../harness.js';

const renames = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: async (from: string, to: string) => {
      renames.count += 1;
      return real.rename(from, to);
    },
  };
});

const CWD = '/work/project 项目';
const PID = 4242;

let base: string;
let home: string;
let tmp: string;
let drafts: string;
let clock: FakeClock;
let store: ChatStore;
let warnings: string[];
let journal: DraftJournal;

function makeJournal(opts: { home?: string; pid?: number; alive?: number[] } = {}): DraftJournal {
  const alive = new Set(opts.alive ?? []);
  return new DraftJournal({
    home: opts.home ?? home,
    cwd: CWD,
    store,
    schedule: clock.schedule,
    now: () => clock.now,
    tmpDir: tmp,
    warn: (text) => warnings.push(text),
    pid: opts.pid ?? PID,
    isAlive: (pid) => alive.has(pid),
  });
}

const cwdFile = (pid = PID): string => path.join(drafts, `${cwdDraftPrefix(CWD)}${pid}.json`);
const readDoc = (file: string): DraftDocument => decodeDraftDocument(readFileSync(file, 'utf8'));
const mode = (p: string): number => statSync(p).mode & 0o777;

/** A composer with `text` typed (settled, so nothing is held back by the paste-burst detector). */
function typed(text: string, d = new Driver()): Driver {
  d.type(text);
  d.settle();
  return d;
}

async function flush(): Promise<void> {
  clock.advance(JOURNAL_DELAY_MS);
  await journal.idle();
}

function docFor(pid: number, text: string, cwd = CWD): DraftDocument {
  return {
    version: 1,
    cwd,
    threadId: null,
    pid,
    ...unsentInputOf(typed(text).state, { pendingSteers: [], rejectedSteers: [], queued: [] }),
  };
}

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), 'tiller-journal-'));
  home = path.join(base, 'home');
  tmp = path.join(base, 'tmp');
  mkdirSync(tmp);
  drafts = path.join(home, 'drafts');
  clock = new FakeClock();
  store = createChatStore(initialComposerState({ vimEnabled: false, probeMedia: noMedia }));
  warnings = [];
  renames.count = 0;
  journal = makeJournal();
  journal.start();
});

afterEach(() => {
  journal.close();
  rmSync(base, { recursive: true, force: true });
});

describe('writing', () => {
  it('coalesces the changes of one 250 ms window into one atomic write, 0600 in a 0700 directory, no temp file left', async () => {
    const d = new Driver();
    for (const ch of 'héllo 世界') {
      d.type(ch, 30);
      store.setState({ composer: d.state });
      clock.advance(20);
    }
    d.settle();
    store.setState({ composer: d.state });
    await journal.idle();
    expect(renames.count).toBe(0);
    clock.advance(JOURNAL_DELAY_MS);
    await journal.idle();
    expect(renames.count).toBe(1);
    expect(readdirSync(drafts)).toEqual([path.basename(cwdFile())]);
    expect(readDoc(cwdFile()).draft?.text).toBe('héllo 世界');
    expect(mode(drafts)).toBe(0o700);
    expect(mode(cwdFile())).toBe(0o600);
    // A change after the window is a write of its own.
    store.setState({ composer: typed('!', d).state });
    await flush();
    expect(renames.count).toBe(2);
    expect(readDoc(cwdFile()).draft?.text).toBe('héllo 世界!');
  });

  it('the drafts folder removed after a save is made again, 0700, by the next save, with no warning', async () => {
    store.setState({ composer: typed('first').state });
    await flush();
    rmSync(drafts, { recursive: true, force: true });
    store.setState({ composer: typed('first, again').state });
    await flush();
    expect(readDoc(cwdFile()).draft?.text).toBe('first, again');
    expect(mode(drafts)).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it('a change is on disk within 250 ms of being made, not before the window ends', async () => {
    store.setState({ composer: typed('a').state });
    clock.advance(JOURNAL_DELAY_MS - 1);
    await journal.idle();
    expect(readdirSync(base)).not.toContain('home');
    clock.advance(1);
    await journal.idle();
    expect(readDoc(cwdFile()).draft?.text).toBe('a');
  });

  it('an unchanged draft is not written again (a caret-free change such as a resize)', async () => {
    const d = typed('same');
    store.setState({ composer: d.state });
    await flush();
    store.setState({ composer: { ...d.state, width: 40 } });
    await flush();
    expect(renames.count).toBe(1);
  });

  it('removes the file when nothing is unsent (the draft was submitted)', async () => {
    store.setState({ composer: typed('to send').state });
    await flush();
    expect(readdirSync(drafts)).toHaveLength(1);
    store.setState({ composer: initialComposerState({ vimEnabled: false, probeMedia: noMedia }) });
    await flush();
    expect(readdirSync(drafts)).toEqual([]);
  });

  it('keeps waiting messages as well as the draft', async () => {
    const sub = { text: 'queued one', textElements: [], attachments: [] };
    store.setState({ queued: [{ id: 1, text: sub.text, attachmentCount: 0, submission: sub, action: 'plain' }] });
    await flush();
    expect(readDoc(cwdFile()).waiting).toEqual([{ submission: sub, action: 'plain' }]);
  });

  it('moves to the thread file once the thread has had a turn, and back to the directory file for a new thread', async () => {
    store.setState({ composer: typed('before').state, threadId: 'th-1' });
    await flush();
    expect(readdirSync(drafts)).toEqual([path.basename(cwdFile())]);
    store.setState({ activeTurn: { id: 'turn-1', startedAt: 0 } });
    await flush();
    const threadFile = threadDraftFile(drafts, 'th-1');
    expect(readdirSync(drafts)).toEqual([path.basename(threadFile)]);
    expect(readDoc(threadFile)).toMatchObject({ threadId: 'th-1', cwd: CWD, pid: PID });
    store.setState({ activeTurn: null, threadId: 'th-2' });
    await flush();
    expect(readdirSync(drafts)).toEqual([path.basename(cwdFile())]);
  });

  it('close() writes the latest change at once, synchronously; a close with nothing unsent removes the file', async () => {
    store.setState({ composer: typed('first').state });
    await flush();
    store.setState({ composer: typed('second').state });
    journal.close();
    expect(readDoc(cwdFile()).draft?.text).toBe('second');
    // Closed: later changes are not written.
    store.setState({ composer: typed('third').state });
    await flush();
    expect(readDoc(cwdFile()).draft?.text).toBe('second');

    journal = makeJournal();
    journal.start();
    await journal.loadForCwd();
    store.setState({ composer: initialComposerState({ vimEnabled: false, probeMedia: noMedia }) });
    journal.close();
    expect(readdirSync(drafts)).toEqual([]);
  });

  it('copies attachments in the temporary directory into the journal (content-addressed, 0600); others keep their path', async () => {
    const clip = path.join(tmp, 'tiller-clipboard-1.png');
    writeFileSync(clip, 'PNGDATA');
    const kept = path.join(base, 'photo.png');
    writeFileSync(kept, 'OTHER');
    const d = new Driver();
    d.send({ type: 'attach', attachment: image(clip) });
    d.send({ type: 'attach', attachment: image(kept) });
    store.setState({ composer: d.state });
    await flush();
    const doc = readDoc(cwdFile());
    const [copied, other] = doc.draft!.attachments;
    expect(path.dirname(copied!.path)).toBe(path.join(drafts, 'attachments'));
    expect(path.basename(copied!.path)).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(copied).toMatchObject({ placeholder: '[Image #1]', fileName: clip });
    expect(readFileSync(copied!.path, 'utf8')).toBe('PNGDATA');
    expect(mode(copied!.path)).toBe(0o600);
    expect(mode(path.join(drafts, 'attachments'))).toBe(0o700);
    expect(other!.path).toBe(kept);
    // The copy outlives the temporary file.
    rmSync(clip);
    store.setState({ composer: typed('more', d).state });
    await flush();
    expect(readDoc(cwdFile()).draft!.attachments[0]!.path).toBe(copied!.path);
  });

  it('an unwritable home gives one warning, however many writes fail, and nothing throws', async () => {
    const file = path.join(base, 'a-file');
    writeFileSync(file, '');
    journal.close();
    journal = makeJournal({ home: path.join(file, 'home') });
    journal.start();
    store.setState({ composer: typed('one').state });
    await flush();
    store.setState({ composer: typed('two').state });
    await flush();
    journal.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Your unsent draft cannot be saved \(ENOTDIR.*\); the session goes on/);
  });
});

describe('reading at launch', () => {
  function put(name: string, content: string): string {
    mkdirSync(drafts, { recursive: true });
    const file = path.join(drafts, name);
    writeFileSync(file, content);
    return file;
  }

  it('takes over the draft of a Tiller that is gone, not one that still runs', async () => {
    put(`${cwdDraftPrefix(CWD)}111.json`, encodeDraftDocument(docFor(111, 'from a live one')));
    put(`${cwdDraftPrefix(CWD)}222.json`, encodeDraftDocument(docFor(222, 'from a dead one')));
    journal.close();
    journal = makeJournal({ alive: [111] });
    journal.start();
    const { document } = await journal.loadForCwd();
    expect(document?.draft?.text).toBe('from a dead one');
    // Once this session writes its own file, the one taken over is gone; the live one's stays.
    store.setState({ composer: typed('from a dead one').state });
    await flush();
    expect(readdirSync(drafts).sort()).toEqual([`${cwdDraftPrefix(CWD)}111.json`, path.basename(cwdFile())].sort());
  });

  it('ignores drafts of other directories and lists threads begun here whose draft is kept', async () => {
    put(`${cwdDraftPrefix('/elsewhere')}1.json`, encodeDraftDocument(docFor(1, 'other dir', '/elsewhere')));
    put('thread-th-9.json', encodeDraftDocument({ ...docFor(1, 'in a thread'), threadId: 'th-9' }));
    const { document, keptThreads } = await journal.loadForCwd();
    expect(document).toBeNull();
    expect(keptThreads).toEqual(['th-9']);
  });

  it('a damaged file: a warning, kept as .corrupt, the session goes on', async () => {
    const file = put(`${cwdDraftPrefix(CWD)}5.json`, '{"version":1,"cwd":');
    const { document } = await journal.loadForCwd();
    expect(document).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`The unsent draft in ${file} cannot be read (not JSON`);
    expect(warnings[0]).toContain(`it is kept as ${file}.corrupt`);
    expect(readdirSync(drafts)).toEqual([`${path.basename(file)}.corrupt`]);
    store.setState({ composer: typed('still saving').state });
    await flush();
    expect(readDoc(cwdFile()).draft?.text).toBe('still saving');
  });

  it('a file from a newer Tiller: a warning, left as it is', async () => {
    const file = put(`${cwdDraftPrefix(CWD)}5.json`, JSON.stringify({ ...docFor(5, 'x'), version: 9 }));
    await journal.loadForCwd();
    expect(warnings).toEqual([expect.stringContaining('saved by a newer Tiller')]);
    expect(readdirSync(drafts)).toEqual([path.basename(file)]);
  });

  it("a thread draft comes back for its resume, and from then on that file is this session's", async () => {
    const file = put('thread-th-3.json', encodeDraftDocument({ ...docFor(77, 'resume me'), threadId: 'th-3' }));
    const doc = await journal.loadForThread('th-3');
    expect(doc?.draft?.text).toBe('resume me');
    expect(await journal.loadForThread('th-none')).toBeNull();
    store.setState({ threadId: 'th-3', composer: typed('resume me, edited').state });
    await flush();
    expect(readdirSync(drafts)).toEqual([path.basename(file)]);
    expect(readDoc(file).draft?.text).toBe('resume me, edited');
    store.setState({ composer: initialComposerState({ vimEnabled: false, probeMedia: noMedia }) });
    await flush();
    expect(readdirSync(drafts)).toEqual([]);
  });

  it('removes old attachment copies no journal points at, and old temp files; keeps the rest', async () => {
    const copies = path.join(drafts, 'attachments');
    mkdirSync(copies, { recursive: true });
    const used = path.join(copies, 'a'.repeat(64) + '.png');
    const unused = path.join(copies, 'b'.repeat(64) + '.png');
    const fresh = path.join(copies, 'c'.repeat(64) + '.png');
    for (const f of [used, unused, fresh]) writeFileSync(f, 'x');
    const staleTemp = put('.thread-x.json.1.1.tmp', 'partial');
    const old = new Date(clock.now - 2 * 60 * 60 * 1000);
    const { utimesSync } = await import('node:fs');
    for (const f of [used, unused, staleTemp]) utimesSync(f, old, old);
    const doc = docFor(8, 'with a copy', '/elsewhere');
    doc.draft!.attachments = [{ ...image(used), placeholder: '[Image #1]' }];
    put(`${cwdDraftPrefix('/elsewhere')}8.json`, encodeDraftDocument(doc));
    await journal.loadForCwd();
    await journal.idle();
    expect(readdirSync(copies).sort()).toEqual([path.basename(used), path.basename(fresh)].sort());
    expect(readdirSync(drafts)).not.toContain(path.basename(staleTemp));
  });
});
