/** The key a submission was made with travels in its result, so the app needs no flag of its own. */
import { describe, expect, it } from 'vitest';
import { Driver } from './driver.js';

function typed(text: string): Driver {
  const d = new Driver();
  d.type(text);
  d.settle();
  return d;
}

describe('the submission mode', () => {
  it('is enter for Enter', () => {
    const d = typed('hello');
    d.enter();
    expect(d.results).toEqual([{ type: 'submitted', mode: 'enter', text: 'hello', textElements: [], attachments: [] }]);
  });

  it('is tab for Tab while no turn runs', () => {
    const d = typed('hello');
    d.key('tab');
    expect(d.results).toEqual([{ type: 'submitted', mode: 'tab', text: 'hello', textElements: [], attachments: [] }]);
  });

  it('is sendNow for Ctrl+Enter', () => {
    const d = typed('hello');
    d.key('enter', { ctrl: true });
    expect(d.results).toEqual([{ type: 'submitted', mode: 'sendNow', text: 'hello', textElements: [], attachments: [] }]);
    expect(d.text).toBe('');
  });

  it('leaves Tab while a turn runs a queued follow-up, and Ctrl+Enter with a popup open a newline', () => {
    const queued = typed('later');
    queued.send({ type: 'setTaskRunning', running: true });
    queued.key('tab');
    expect(queued.results).toEqual([{ type: 'queued', action: 'plain', text: 'later', textElements: [], attachments: [] }]);

    const popup = typed('/');
    expect(popup.state.popup).not.toBeNull();
    popup.key('enter', { ctrl: true });
    expect(popup.results).toEqual([]);
    expect(popup.text).toBe('/\n');
  });
});
