import { describe, expect, it } from 'vitest';
import { runComposerEffect, type ComposerEffectsHost } from '../../../../src/tui/chat/input/composer-effects.js';
import type { ComposerEvent } from '../../../../src/tui/composer/types.js';

function host(overrides: Partial<ComposerEffectsHost>): { host: ComposerEffectsHost; events: ComposerEvent[] } {
  const events: ComposerEvent[] = [];
  return {
    events,
    host: {
      dispatch: (e) => events.push(e),
      cell: () => undefined,
      scheduleTick: () => undefined,
      showQuitHint: () => undefined,
      modelSupportsImages: true,
      readClipboardImage: async () => ({ error: 'none' }),
      searchFiles: async () => [],
      ...overrides,
    },
  };
}

describe('popup refresh effects', () => {
  it('a refreshing file search answers from the cache, then again with what the new walk found', async () => {
    let refreshed: ((paths: string[]) => void) | undefined;
    const h = host({
      searchFiles: async (_query, opts) => {
        refreshed = opts?.onRefreshed;
        return ['old.ts'];
      },
    });
    runComposerEffect({ type: 'fileSearch', query: '', refresh: true }, h.host);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events).toEqual([{ type: 'fileSearchResult', query: '', paths: ['old.ts'] }]);
    refreshed!(['new.ts', 'old.ts']);
    expect(h.events.at(-1)).toEqual({ type: 'fileSearchResult', query: '', paths: ['new.ts', 'old.ts'] });
  });

  it('a plain file search asks for no refresh', async () => {
    const calls: unknown[] = [];
    const h = host({
      searchFiles: async (...args) => {
        calls.push(args);
        return [];
      },
    });
    runComposerEffect({ type: 'fileSearch', query: 'a' }, h.host);
    expect(calls).toEqual([['a']]);
  });

  it('refreshSkills goes to the host', () => {
    let asked = 0;
    const h = host({ refreshSkills: () => void (asked += 1) });
    runComposerEffect({ type: 'refreshSkills' }, h.host);
    expect(asked).toBe(1);
  });
});
