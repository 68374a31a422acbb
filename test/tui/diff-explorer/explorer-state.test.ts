/** The /diff explorer's pure state: grouping a turn's patch into files, selection, the view toggle, prompts, the frame. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { ExplorerFrames, footerKeys, listRows } from '../../../src/tui/diff-explorer/explorer-lines.js';
import {
  defaultSavePath,
  type ExplorerState,
  explorerKey,
  explorerPaste,
  filesOf,
  initialExplorer,
  selectedFile,
  withContent,
} from '../../../src/tui/diff-explorer/explorer-state.js';
import { splitPatch } from '../../../src/tui/diff-explorer/patch-files.js';
import { charKey, key } from '../../../src/tui/keys/types.js';

const TURN_1 = `diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 alpha
-beta
+BETA
 gamma
diff --git a/notes/new.txt b/notes/new.txt
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/notes/new.txt
@@ -0,0 +1 @@
+fresh
`;
const TURN_2 = `diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two
diff --git a/logo.png b/logo.png
index 5555555..6666666 100644
GIT binary patch
literal 3
Kc\${NkVq3Z|

literal 3
Kc\${NkVq3Z|
`;

function ready(): ExplorerState {
  const state = initialExplorer('session');
  return withContent(state, 'session', {
    status: 'ready',
    groups: [
      { title: 'Turn 1 · first', turnId: 't1', files: splitPatch(TURN_1) },
      { title: 'Turn 2 · second', turnId: 't2', files: splitPatch(TURN_2) },
    ],
  });
}

const press = (state: ExplorerState, ...keys: Parameters<typeof explorerKey>[1][]): ExplorerState =>
  keys.reduce((s, k) => explorerKey(s, k, 10).state, state);

describe('splitPatch', () => {
  it('gives each file its own section, kind, hunks and counts; a binary file is named so', () => {
    const files = splitPatch(TURN_1 + TURN_2);
    expect(files.map((f) => [f.path, f.kind, f.added, f.removed, f.binary])).toEqual([
      ['a.txt', 'update', 1, 1, false],
      ['notes/new.txt', 'add', 1, 0, false],
      ['gone.txt', 'delete', 0, 2, false],
      ['logo.png', 'update', 0, 0, true],
    ]);
    expect(files[0]!.patch).toBe(TURN_1.slice(0, TURN_1.indexOf('diff --git a/notes')));
    expect(files[1]!.hunks).toBe('@@ -0,0 +1 @@\n+fresh\n');
    expect(files.map((f) => f.patch).join('')).toBe(TURN_1 + TURN_2);
  });
});

describe('the explorer state', () => {
  it('selects across the turn groups in list order, within the list', () => {
    let state = ready();
    expect(filesOf(state).map(({ file, group }) => `${group.turnId}:${file.path}`)).toEqual([
      't1:a.txt',
      't1:notes/new.txt',
      't2:gone.txt',
      't2:logo.png',
    ]);
    state = press(state, key('up'));
    expect(selectedFile(state)?.file.path).toBe('a.txt');
    state = press(state, key('down'), key('down'));
    expect(selectedFile(state)?.file.path).toBe('gone.txt');
    expect(selectedFile(state)?.group.title).toBe('Turn 2 · second');
    state = press(state, key('down'), key('down'), key('down'));
    expect(selectedFile(state)?.file.path).toBe('logo.png');
    expect(press(state, key('home')).selected).toBe(0);
  });

  it('Tab toggles to the git view and asks for it once; back again keeps what was loaded', () => {
    const first = explorerKey(ready(), key('tab'), 10);
    expect(first.state.view).toBe('git');
    expect(first.effect).toEqual({ kind: 'load', view: 'git' });
    const loaded = withContent(first.state, 'git', { status: 'message', text: 'not a repository' });
    const back = explorerKey(loaded, key('tab'), 10);
    expect(back.state.view).toBe('session');
    expect(back.effect).toBeUndefined();
    expect(explorerKey(back.state, key('tab'), 10).effect).toBeUndefined();
  });

  it('Enter opens the diff and Esc goes back to the list, then closes', () => {
    const open = press(ready(), key('down'), key('enter'));
    expect(open).toMatchObject({ diffOpen: true, top: 0, selected: 1 });
    const scrolled = press(open, key('pagedown'), key('down'));
    expect(scrolled.top).toBe(11);
    const back = explorerKey(scrolled, key('escape'), 10);
    expect(back.state).toMatchObject({ diffOpen: false, selected: 1 });
    expect(explorerKey(back.state, charKey('q'), 10).effect).toEqual({ kind: 'close' });
  });

  it('r reverts a session file, and in the git view says where reverting is', () => {
    expect(explorerKey(ready(), charKey('r'), 10).effect).toEqual({ kind: 'revert', force: false });
    const git = withContent({ ...ready(), view: 'git' }, 'git', {
      status: 'ready',
      groups: [{ title: 'Working tree', turnId: null, files: splitPatch(TURN_1) }],
    });
    const result = explorerKey(git, charKey('r'), 10);
    expect(result.effect).toBeUndefined();
    expect(result.state.notice).toEqual({ text: "r reverts a file of this session's turns (Tab: session view).", error: true });
    expect(explorerKey(git, charKey('y'), 10).effect).toEqual({ kind: 'copy' });
  });

  it('s asks for a path with a default by file and turn; typing, a paste and Backspace edit it; Enter saves', () => {
    let state = explorerKey(ready(), charKey('s'), 10, 1).state;
    expect(state.prompt).toEqual({ kind: 'save', path: 'a.txt.turn-1.patch' });
    // Keys that mean something in the list are text in the prompt.
    state = press(
      state,
      key('backspace'),
      key('backspace'),
      key('backspace'),
      key('backspace'),
      key('backspace'),
      charKey('q'),
      charKey('r'),
    );
    state = explorerPaste(state, 'x\n');
    expect(state.prompt).toEqual({ kind: 'save', path: 'a.txt.turn-1.qrx' });
    expect(explorerKey(state, key('enter'), 10).effect).toEqual({ kind: 'save', path: 'a.txt.turn-1.qrx' });
    const cancelled = explorerKey(state, key('escape'), 10);
    expect(cancelled.state.prompt).toBeNull();
    expect(cancelled.effect).toBeUndefined();
    const empty = explorerKey({ ...state, prompt: { kind: 'save', path: '  ' } }, key('enter'), 10);
    expect(empty.effect).toBeUndefined();
    expect(empty.state.notice?.error).toBe(true);
    expect(defaultSavePath(selectedFile(ready())!, null)).toBe('a.txt.patch');
  });

  it('the hand-edit question overwrites on y or Enter only', () => {
    const asking: ExplorerState = { ...ready(), prompt: { kind: 'confirmRevert', paths: ['/w/a.txt'] } };
    expect(explorerKey(asking, charKey('y'), 10).effect).toEqual({ kind: 'revert', force: true });
    expect(explorerKey(asking, key('enter'), 10).effect).toEqual({ kind: 'revert', force: true });
    for (const no of [charKey('n'), key('escape')]) {
      const result = explorerKey(asking, no, 10);
      expect(result.effect).toBeUndefined();
      expect(result.state.prompt).toBeNull();
    }
    expect(explorerKey(asking, charKey('r'), 10).state.prompt).toEqual(asking.prompt);
  });

  it('new content keeps the selection in range', () => {
    const state = { ...ready(), selected: 3 };
    const fewer = withContent(state, 'session', {
      status: 'ready',
      groups: [{ title: 'Turn 1', turnId: 't1', files: splitPatch(TURN_1) }],
    });
    expect(fewer.selected).toBe(1);
  });
});

describe('the explorer screen', () => {
  const c = new Chalk({ level: 0 });

  it('lists groups with their files, the selection marked, and the toggle key in the footer', () => {
    const { rows, selectedRow } = listRows(press(ready(), key('down')), 80, c);
    expect(rows).toEqual([
      ' Turn 1 · first',
      '   a.txt edited +1 −1',
      ' › notes/new.txt added +1 −0',
      ' Turn 2 · second',
      '   gone.txt deleted +0 −2',
      '   logo.png edited binary',
    ]);
    expect(selectedRow).toBe(2);
    expect(footerKeys(ready())).toBe('Tab git working tree · ↑/↓ select · Enter diff · r revert · y copy · s save · q close');
    const frame = new ExplorerFrames(c).frame(ready(), 160, 10);
    expect(frame).toContain('\x1b[10;1H Diff explorer · this session · 4 files · Tab git working tree');
  });

  it("draws the open diff with the patch cell's numbered rows, and a binary file as such", () => {
    const frames = new ExplorerFrames(c);
    const open = press(ready(), key('enter'));
    const frame = frames.frame(open, 80, 10);
    expect(frame).toContain(' a.txt edited +1 −1');
    expect(frame).toMatch(/2 -beta/);
    expect(frame).toMatch(/2 \+BETA/);
    const binary = press(ready(), key('end'), key('enter'));
    expect(frames.frame(binary, 80, 10)).toContain('binary file, not shown');
  });
});
