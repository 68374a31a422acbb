/**
 * The shipped bundle (dist/, built by the test setup) holds Tiller's replacements inside Ink: Yoga
 * loaded without `fetch` (src/tui/terminal/yoga-layout.ts) and the frame buffer that keeps its work
 * across frames (src/tui/terminal/ink-output.ts) instead of Ink's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The chunks the bin can load: from dist/tiller.mjs along every import (a test build leaves older chunks beside them). */
const chunks = (): string[] => {
  const seen = new Map<string, string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const code = readFileSync(join(DIST, file), 'utf8');
    seen.set(file, code);
    for (const [, next] of code.matchAll(/["']\.\/([\w-]+\.mjs)["']/gu)) visit(next!);
  };
  visit('tiller.mjs');
  return [...seen.values()];
};

it("Ink's Yoga in the bundle is loaded through the wrapper that hides fetch", () => {
  const withYoga = chunks().filter((code) => code.includes('failed to load wasm binary file'));
  expect(withYoga).toHaveLength(1);
  expect(withYoga[0]).toContain('fetchDescriptor');
});

it("Ink's renderer in the bundle draws into Tiller's frame buffer, and Ink's own is not there", () => {
  const code = chunks().join('\n');
  expect(code).toContain('rowStrings');
  expect(code).not.toContain('class OutputCaches');
});
