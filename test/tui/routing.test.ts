import { describe, expect, it } from 'vitest';
import { JsonRpcError, JSONRPC_INVALID_REQUEST, type V2UserInput } from '../../src/protocol/api.js';
import type { Attachment, Submission } from '../../src/tui/composer/types.js';
import {
  buildUserInputs,
  compareKey,
  interruptTurn,
  mismatchActualTurnId,
  notSteerableTurnKind,
  submitUserTurn,
} from '../../src/tui/routing.js';
import { interruptError, notSubmittedError } from '../../src/protocol/turn-errors.js';
import { FakeAppServerClient } from './chat/fake-client.js';

function att(kind: 'image' | 'audio', n: number, path: string): Attachment {
  return {
    kind,
    placeholder: `[${kind === 'image' ? 'Image' : 'Audio'} #${n}]`,
    path,
    fileName: path,
    bytes: 1,
    width: null,
    height: null,
    mime: '',
  };
}

const text = (t: string): V2UserInput => ({ type: 'text', text: t, text_elements: [] });

describe('buildUserInputs', () => {
  it('orders remote images, local attachments, text, then skills', () => {
    const submission: Submission = {
      text: '[Image #2] look $deploy and $deploy again, not a$deploy',
      textElements: [{ byte_range: { start: 0, end: 10 }, placeholder: '[Image #2]' }],
      attachments: [att('image', 2, '/a.png'), att('audio', 1, '/b.wav')],
    };
    const items = buildUserInputs(submission, {
      remoteImageUrls: ['https://x/y.png'],
      skills: [
        { name: 'deploy', path: '/skills/deploy/SKILL.md' },
        { name: 'unused', path: '/skills/unused/SKILL.md' },
      ],
    });
    expect(items).toEqual([
      { type: 'image', url: 'https://x/y.png' },
      { type: 'localImage', path: '/a.png' },
      { type: 'localAudio', path: '/b.wav' },
      {
        type: 'text',
        text: submission.text,
        text_elements: [{ byteRange: { start: 0, end: 10 }, placeholder: '[Image #2]' }],
      },
      { type: 'skill', name: 'deploy', path: '/skills/deploy/SKILL.md' },
    ]);
  });

  it('omits the text item for an image-only submission and keeps null placeholders', () => {
    expect(buildUserInputs({ text: '', textElements: [], attachments: [att('image', 1, '/a.png')] })).toEqual([
      { type: 'localImage', path: '/a.png' },
    ]);
    expect(buildUserInputs({ text: 'ab', textElements: [{ byte_range: { start: 0, end: 1 } }], attachments: [] })).toEqual([
      { type: 'text', text: 'ab', text_elements: [{ byteRange: { start: 0, end: 1 }, placeholder: null }] },
    ]);
  });
});

it('puts skills bound in the composer first, then typed $name skills, one per path', () => {
  const items = buildUserInputs(
    { text: '$a and $b', textElements: [], attachments: [], mentions: [{ name: 'b', path: '/s/b/SKILL.md' }] },
    {
      skills: [
        { name: 'a', path: '/s/a/SKILL.md' },
        { name: 'b', path: '/s/b/SKILL.md' },
      ],
    },
  );
  expect(items.slice(1)).toEqual([
    { type: 'skill', name: 'b', path: '/s/b/SKILL.md' },
    { type: 'skill', name: 'a', path: '/s/a/SKILL.md' },
  ]);
});

describe('compareKey', () => {
  it('joins the text items and counts media, ignoring skills', () => {
    const a = compareKey([{ type: 'localImage', path: '/a' }, text('hi'), { type: 'skill', name: 's', path: '/s' }]);
    expect(a).toBe(compareKey([{ type: 'image', url: 'data:x' }, text('hi')]));
    expect(a).not.toBe(compareKey([text('hi')]));
    expect(compareKey([text('a'), text('b')])).toBe(compareKey([text('ab')]));
  });
});

describe('submitUserTurn', () => {
  it('starts a turn when no turn is active, with the settings', async () => {
    const client = new FakeAppServerClient();
    const seen: (string | null)[] = [];
    const res = await submitUserTurn(client, {
      threadId: 'th',
      activeTurnId: null,
      items: [text('hi')],
      settings: { cwd: '/w', model: 'm', kind: 'compact' },
      onActiveTurnId: (id) => seen.push(id),
    });
    expect(res).toEqual({ kind: 'started', turnId: 'turn-1' });
    expect(client.requests).toEqual([
      { method: 'turn/start', params: { threadId: 'th', input: [text('hi')], cwd: '/w', model: 'm', kind: 'compact' } },
    ]);
    expect(seen).toEqual(['turn-1']);
  });

  it('steers the cached active turn with expectedTurnId', async () => {
    const client = new FakeAppServerClient();
    const res = await submitUserTurn(client, { threadId: 'th', activeTurnId: 'T1', items: [text('also')] });
    expect(res).toEqual({ kind: 'steered', turnId: 'T1' });
    expect(client.requests).toEqual([{ method: 'turn/steer', params: { threadId: 'th', input: [text('also')], expectedTurnId: 'T1' } }]);
  });

  it('detects the race where the active turn is gone: clears the cache and starts', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw notSubmittedError({ type: 'noActiveTurn' });
    });
    const seen: (string | null)[] = [];
    const res = await submitUserTurn(client, {
      threadId: 'th',
      activeTurnId: 'T1',
      items: [text('x')],
      onActiveTurnId: (id) => seen.push(id),
    });
    expect(res).toEqual({ kind: 'started', turnId: 'turn-1' });
    expect(client.requests.map((r) => r.method)).toEqual(['turn/steer', 'turn/start']);
    expect(seen).toEqual([null, 'turn-1']);
  });

  it('takes the actual turn id from a mismatch and retries the steer once', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw notSubmittedError({ type: 'expectedTurnMismatch', expected: 'A', actual: 'B' });
    });
    const seen: (string | null)[] = [];
    const res = await submitUserTurn(client, {
      threadId: 'th',
      activeTurnId: 'A',
      items: [text('x')],
      onActiveTurnId: (id) => seen.push(id),
    });
    expect(res).toEqual({ kind: 'steered', turnId: 'B' });
    expect(client.requestsOf('turn/steer').map((p) => p.expectedTurnId)).toEqual(['A', 'B']);
    expect(seen).toEqual(['B']);
  });

  it('gives up after a second mismatch, keeping the newest id', async () => {
    const mismatch = (a: string, b: string) => () => {
      throw notSubmittedError({ type: 'expectedTurnMismatch', expected: a, actual: b });
    };
    const client = new FakeAppServerClient().once('turn/steer', mismatch('A', 'B')).once('turn/steer', mismatch('B', 'C'));
    const seen: (string | null)[] = [];
    await expect(
      submitUserTurn(client, { threadId: 'th', activeTurnId: 'A', items: [text('x')], onActiveTurnId: (id) => seen.push(id) }),
    ).rejects.toThrow('found `C`');
    expect(client.requests).toHaveLength(2);
    expect(seen).toEqual(['B', 'C']);
  });

  it('extracts the structured not-steerable error and reports the turn kind', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw notSubmittedError({ type: 'activeTurnNotSteerable', turnKind: 'review' });
    });
    const res = await submitUserTurn(client, { threadId: 'th', activeTurnId: 'R', items: [text('x')] });
    expect(res).toEqual({ kind: 'rejectedNotSteerable', turnId: 'R', turnKind: 'review' });
    expect(client.requests).toHaveLength(1);
  });

  it('propagates other errors', async () => {
    const client = new FakeAppServerClient().once('turn/steer', () => {
      throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'input must not be empty');
    });
    await expect(submitUserTurn(client, { threadId: 'th', activeTurnId: 'T', items: [] })).rejects.toThrow('input must not be empty');
  });
});

describe('error helpers', () => {
  it('read mismatch and not-steerable errors from their data, never from the words', () => {
    expect(mismatchActualTurnId(notSubmittedError({ type: 'expectedTurnMismatch', expected: 'a-1', actual: 'b-2' }))).toEqual({
      expected: 'a-1',
      actual: 'b-2',
    });
    expect(notSubmittedError({ type: 'expectedTurnMismatch', expected: 'a-1', actual: 'b-2' }).message).toBe(
      'expected active turn id `a-1` but found `b-2`',
    );
    expect(mismatchActualTurnId(new JsonRpcError(1, 'expected active turn id `a` but found `b`'))).toBeNull();
    expect(mismatchActualTurnId(new Error('expected active turn id `a` but found `b`'))).toBeNull();
    expect(notSteerableTurnKind(new JsonRpcError(1, 'x', { codexErrorInfo: 'other' }))).toBeNull();
    expect(notSteerableTurnKind(new JsonRpcError(1, 'x', { codexErrorInfo: { activeTurnNotSteerable: { turnKind: 'compact' } } }))).toBe(
      'compact',
    );
  });

  it('tolerates `no active turn to interrupt`', async () => {
    const client = new FakeAppServerClient().once('turn/interrupt', () => {
      throw interruptError('T', { type: 'noActiveTurn' });
    });
    await expect(interruptTurn(client, 'th', 'T')).resolves.toBeUndefined();
    client.once('turn/interrupt', () => {
      throw interruptError('T', { type: 'mismatch', actual: 'U' });
    });
    await expect(interruptTurn(client, 'th', 'T')).rejects.toThrow('expected active turn id T but found U');
    client.once('turn/interrupt', () => {
      throw new JsonRpcError(JSONRPC_INVALID_REQUEST, 'thread not found: th');
    });
    await expect(interruptTurn(client, 'th', 'T')).rejects.toThrow('thread not found');
  });
});
