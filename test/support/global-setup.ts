import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * End-to-end tests run the shipped bundle, so build it once from the current sources. Every temporary
 * file of the run (test homes, fixtures, clipboard PNGs written by the bin) goes under one TMPDIR that
 * is removed at the end, so a run leaves nothing behind.
 */
export default function setup(): () => void {
  // Each vitest project inherits this setup; the first one does the work for the whole run.
  if (process.env.TILLER_TEST_RUN_TMP !== undefined) return () => undefined;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const runTmp = mkdtempSync(join(tmpdir(), 'tiller-test-run-'));
  process.env.TMPDIR = runTmp;
  process.env.TILLER_TEST_RUN_TMP = runTmp;
  return () => rmSync(runTmp, { recursive: true, force: true });
}
