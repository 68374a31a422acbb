import { describe, expect, it } from 'vitest';
import { charKey } from '../../../src/tui/keys/types.js';
import { footerHint, isEmpty, restorableDraft } from '../../../src/tui/composer/reducer.js';
import { validateTextElements } from '../../../src/protocol/text-element.js';
import { Driver, image } from './driver.js';

function typed(text: string, opts: ConstructorParameters<typeof Driver>[0] = {}): Driver {
  const d = new Driver(opts);
  d.type(text);
  d.settle();
  return d;
}

describe('Enter and newline keys', () => {
  it('Enter submits the text and empties the composer', () => {
    const d = typed('hello');
    d.enter();
    expect(d.results).toEqual([{ type: 'submitted', mode: 'enter', text: 'hello', textElements: [], attachments: [] }]);
    expect(d.text).toBe('');
  });

  it('submission trims surrounding whitespace', () => {
    const d = typed('  hi  ');
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'hi' });
  });

  it('whitespace-only input submits nothing and stays in the composer', () => {
    const d = typed('   ');
    d.enter();
    expect(d.results).toEqual([]);
    expect(d.text).toBe('   ');
  });

  it('Shift+Enter, Alt+Enter and Ctrl+J insert newlines', () => {
    const d = typed('a');
    d.key('enter', { shift: true });
    d.type('b');
    d.key('enter', { alt: true });
    d.type('c');
    d.ctrl('j');
    d.type('d');
    d.settle();
    expect(d.results).toEqual([]);
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'a\nb\nc\nd' });
  });

  it('key release events are ignored', () => {
    const d = typed('x');
    d.send(charKey('y', { kind: 'release' }));
    d.settle();
    expect(d.text).toBe('x');
  });
});

describe('Tab', () => {
  it('queues while a task is running', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('next');
    d.settle();
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'queued', action: 'plain', text: 'next' });
    expect(d.text).toBe('');
  });

  it('behaves like Enter when idle', () => {
    const d = typed('hi');
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: 'hi' });
  });

  it('does not submit a `!` shell command when idle', () => {
    const d = typed('!ls');
    d.key('tab');
    expect(d.results).toEqual([]);
    expect(d.state.bashMode).toBe(true);
    expect(d.text).toBe('ls');
  });

  it('queues a `!` command while running as runShell, without running it', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('!ls');
    d.settle();
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'queued', action: 'runShell', text: '!ls' });
  });

  it('defers slash parsing of queued `/…` text', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('/foo bar');
    d.settle();
    d.key('escape');
    d.key('tab');
    expect(d.lastResult()).toMatchObject({ type: 'queued', action: 'parseSlash', text: '/foo bar' });
  });
});

describe('slash commands', () => {
  it('a bare known command dispatches as a command and clears the text', () => {
    const d = typed('/diff');
    d.key('escape'); // close the popup so the no-popup path is exercised
    d.enter();
    expect(d.lastResult()).toEqual({ type: 'command', command: 'diff' });
    expect(d.text).toBe('');
  });

  it('an unavailable command while a task runs gives the error and keeps the text', () => {
    const d = new Driver();
    d.send({ type: 'setTaskRunning', running: true });
    d.type('/new');
    d.settle();
    d.key('escape');
    const out = d.enter();
    expect(d.results).toEqual([]);
    expect(out.effects).toContainEqual({ type: 'error', text: "'/new' is disabled while a task is in progress." });
    expect(d.text).toBe('/new');
  });

  it('an unknown command gives the info message and keeps the draft', () => {
    const d = typed('/foo');
    const out = d.enter();
    expect(d.results).toEqual([]);
    expect(out.effects).toContainEqual({
      type: 'info',
      text: `Unrecognized command '/foo'. Type "/" for a list of supported commands.`,
    });
    expect(d.text).toBe('/foo');
  });

  it('a leading space or a path makes slash text plain', () => {
    const a = typed(' /foo');
    a.enter();
    expect(a.lastResult()).toMatchObject({ type: 'submitted', text: '/foo' });
    const b = typed('/usr/bin/x');
    b.enter();
    expect(b.lastResult()).toMatchObject({ type: 'submitted', text: '/usr/bin/x' });
  });

  it('a known command followed by a space becomes an atomic element', () => {
    const d = typed('/diff ');
    expect(d.state.ta.elements).toMatchObject([{ start: 0, end: 5, kind: 'slash' }]);
    d.key('backspace');
    d.key('backspace');
    expect(d.text).toBe('');
  });

  it('only known commands are elementized, and only at the start', () => {
    const d = typed('/nope x');
    expect(d.state.ta.elements).toEqual([]);
    const e = typed('/diff x');
    e.key('home');
    e.type('a');
    e.settle();
    expect(e.text).toBe('a/diff x');
    expect(e.state.ta.elements).toEqual([]);
  });
});

describe('limits, elements and the empty rule', () => {
  it('accepts exactly 1048576 characters', () => {
    const d = new Driver();
    d.paste('x'.repeat(1 << 20));
    d.enter();
    const r = d.lastResult();
    expect(r?.type).toBe('submitted');
    expect(r?.type === 'submitted' && r.text.length).toBe(1 << 20);
  });

  it('refuses one character more with the exact error and keeps the draft', () => {
    const d = new Driver();
    d.paste('x'.repeat((1 << 20) + 1));
    const out = d.enter();
    expect(d.results).toEqual([]);
    expect(out.effects).toContainEqual({
      type: 'error',
      text: 'Message exceeds the maximum length of 1048576 characters (1048577 provided).',
    });
    expect(d.text).toBe('[Pasted Content 1048577 chars]');
    expect(d.state.pendingPastes).toHaveLength(1);
  });

  it('counts characters as code points (astral emoji count once)', () => {
    const d = new Driver();
    d.paste('😀'.repeat(1 << 20));
    d.enter();
    expect(d.lastResult()?.type).toBe('submitted');
  });

  it('an image with no text submits empty text and the image', () => {
    const d = new Driver();
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    expect(d.text).toBe('[Image #1] ');
    d.enter();
    const r = d.lastResult();
    expect(r).toMatchObject({ type: 'submitted', text: '', textElements: [] });
    expect(r?.type === 'submitted' && r.attachments.map((a) => a.placeholder)).toEqual(['[Image #1]']);
  });

  it('an image with text keeps its element as a byte range of the submitted text', () => {
    const d = new Driver();
    d.type('你 ');
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    d.type('now');
    d.settle();
    d.enter();
    const r = d.lastResult();
    expect(r).toMatchObject({
      type: 'submitted',
      text: '你 [Image #1] now',
      textElements: [{ byte_range: { start: 4, end: 14 }, placeholder: '[Image #1]' }],
    });
    if (r?.type === 'submitted') expect(validateTextElements(r.text, r.textElements)).toEqual({ ok: true });
  });

  it('records submissions in history and asks to persist them', () => {
    const d = typed('remember me');
    const out = d.enter();
    expect(out.effects).toContainEqual({ type: 'persistHistory', text: 'remember me' });
    d.key('up');
    expect(d.text).toBe('remember me');
  });

  it('the kill buffer survives a submit', () => {
    const d = typed('keep this');
    d.ctrl('w');
    d.enter();
    d.ctrl('y');
    expect(d.text).toBe('this');
  });
});

describe('shell mode', () => {
  it('`!` first turns on shell mode; the submitted text has the `!`', () => {
    const d = new Driver();
    d.type('!');
    d.settle();
    expect(d.state.bashMode).toBe(true);
    expect(d.text).toBe('');
    expect(footerHint(d.state)).toBe('Shell mode');
    d.type('ls -la');
    d.settle();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '!ls -la' });
    expect(d.state.bashMode).toBe(false);
  });

  it('Backspace at the start leaves shell mode; so does Esc on an empty line', () => {
    const d = typed('!x');
    d.key('home');
    d.key('backspace');
    expect(d.state.bashMode).toBe(false);
    expect(d.text).toBe('x');
    const e = typed('!');
    e.key('escape');
    expect(e.state.bashMode).toBe(false);
  });

  it('a slash after `!` is literal (no command popup, no slash validation)', () => {
    const d = typed('!/foo');
    expect(d.state.popup).toBeNull();
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '!/foo' });
  });
});

describe('Ctrl+C, Ctrl+D, Esc, Ctrl+V, ?', () => {
  it('Ctrl+C clears a non-empty draft into history and asks for the quit hint', () => {
    const d = typed('draft');
    const out = d.ctrl('c');
    expect(out.handled).toBe(true);
    expect(out.effects).toContainEqual({ type: 'quitHint' });
    expect(d.text).toBe('');
    d.key('up');
    expect(d.text).toBe('draft');
  });

  it('Ctrl+C on an empty composer is left to the app', () => {
    const d = new Driver();
    const out = d.ctrl('c');
    expect(out.handled).toBe(false);
    expect(out.result).toEqual({ type: 'none' });
  });

  it('Ctrl+D on an empty composer is left to the app; with text it deletes forward', () => {
    const d = new Driver();
    expect(d.ctrl('d').handled).toBe(false);
    d.type('ab');
    d.settle();
    d.key('home');
    expect(d.ctrl('d').handled).toBe(true);
    expect(d.text).toBe('b');
  });

  it('Esc with nothing to close is left to the app (interrupt)', () => {
    const d = typed('text');
    expect(d.key('escape').handled).toBe(false);
  });

  it('Ctrl+V and Alt+V ask for a clipboard image', () => {
    const d = new Driver();
    expect(d.ctrl('v').effects).toContainEqual({ type: 'pasteClipboardImage' });
    expect(d.alt('v').effects).toContainEqual({ type: 'pasteClipboardImage' });
  });

  it('`?` on an empty composer toggles the shortcuts instead of typing', () => {
    const d = new Driver();
    d.type('?');
    expect(d.state.showShortcuts).toBe(true);
    expect(isEmpty(d.state)).toBe(true);
    d.type('?');
    expect(d.state.showShortcuts).toBe(false);
  });

  it('Esc closes the shortcuts and is not passed on to the app', () => {
    const d = new Driver();
    d.type('?');
    const out = d.key('escape');
    expect(out.handled).toBe(true);
    expect(d.state.showShortcuts).toBe(false);
  });

  it('restoreDraft puts a whole draft back with its attachments', () => {
    const d = new Driver();
    d.send({
      type: 'restoreDraft',
      draft: {
        text: '[Image #1] look',
        textElements: [{ byte_range: { start: 0, end: 10 }, placeholder: '[Image #1]' }],
        attachments: [{ ...image('/tmp/a.png'), placeholder: '[Image #1]' }],
      },
    });
    expect(d.text).toBe('[Image #1] look');
    expect(d.state.attachments).toHaveLength(1);
    d.enter();
    expect(d.lastResult()).toMatchObject({ type: 'submitted', text: '[Image #1] look' });
  });

  it('restoreDraft with pending pastes keeps their placeholders atomic and expands them on submit', () => {
    const big = 'z'.repeat(1200);
    const label = '[Pasted Content 1200 chars]';
    const d = new Driver();
    d.send({
      type: 'restoreDraft',
      draft: {
        text: `see ${label} end`,
        textElements: [{ byte_range: { start: 4, end: 4 + label.length }, placeholder: label }],
        attachments: [],
      },
      pendingPastes: [
        { placeholder: label, text: big },
        { placeholder: '[Pasted Content 5000 chars]', text: 'not in the text' },
      ],
    });
    expect(d.text).toBe(`see ${label} end`);
    expect(d.state.ta.elements.map((e) => e.kind)).toEqual(['paste']);
    // A payload whose label is not in the draft is dropped.
    expect(d.state.pendingPastes).toEqual([{ placeholder: label, text: big }]);
    d.enter();
    expect(d.lastResult()).toMatchObject({
      type: 'submitted',
      text: `see ${big} end`,
      textElements: [{ byte_range: { start: 4, end: 1204 }, placeholder: label }],
    });
  });

  it('restorableDraft round-trips a draft with large pastes, shell mode and images through restoreDraft', () => {
    const big = 'q'.repeat(1500);
    const d = new Driver();
    d.type('!echo ');
    d.paste(big);
    d.send({ type: 'attach', attachment: image('/tmp/a.png') });
    const { draft, pendingPastes } = restorableDraft(d.state);
    expect(draft.text).toBe('!echo [Pasted Content 1500 chars][Image #1] ');
    expect(pendingPastes).toEqual([{ placeholder: '[Pasted Content 1500 chars]', text: big }]);
    const e = new Driver();
    e.send({ type: 'restoreDraft', draft, pendingPastes });
    expect([e.text, e.state.bashMode, e.state.attachments.length]).toEqual([d.text, true, 1]);
    d.enter();
    e.enter();
    expect(e.lastResult()).toEqual(d.lastResult());
    expect(e.lastResult()).toMatchObject({ text: `!echo ${big}[Image #1]` });
  });
});
