import { afterEach, describe, expect, it, vi } from 'vitest';
import { importWithLiveRendering } from '../../src/tui/live-render.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('importWithLiveRendering', () => {
  it('hides CI and CONTINUOUS_INTEGRATION while loading and puts them back afterwards', async () => {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('CONTINUOUS_INTEGRATION', '1');
    const seen = await importWithLiveRendering(async () => [process.env.CI, process.env.CONTINUOUS_INTEGRATION]);
    expect(seen).toEqual([undefined, undefined]);
    expect(process.env.CI).toBe('true');
    expect(process.env.CONTINUOUS_INTEGRATION).toBe('1');
  });

  it('restores the variables when loading fails, and leaves unset ones unset', async () => {
    vi.stubEnv('CI', '1');
    delete process.env.CONTINUOUS_INTEGRATION;
    await expect(importWithLiveRendering(() => Promise.reject(new Error('broken chunk')))).rejects.toThrow('broken chunk');
    expect(process.env.CI).toBe('1');
    expect('CONTINUOUS_INTEGRATION' in process.env).toBe(false);
  });
});
