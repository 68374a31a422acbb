/**
 * The shipped bundle (dist/, built by the test setup): Ink's Yoga is the one loaded without `fetch`
 * (src/tui/terminal/yoga-layout.ts), so no chunk holds Yoga's loader without that wrapper.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

it("Ink's Yoga in the bundle is loaded through the wrapper that hides fetch", () => {
  const chunks = readdirSync(DIST)
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => readFileSync(join(DIST, f), 'utf8'));
  const withYoga = chunks.filter((code) => code.includes('failed to load wasm binary file'));
  expect(withYoga).toHaveLength(1);
  expect(withYoga[0]).toContain('fetchDescriptor');
});
