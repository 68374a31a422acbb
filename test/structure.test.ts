/**
 * Size limits on the source tree (issue 31): a module past 500 lines, or a test file past 800, holds
 * more than one concept and is split before it grows further. Lines are counted as `wc -l` counts them
 * (newlines).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

/** Every file under `dir`, relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** `path: N lines` for each file that passes `limit`, by path. */
function overLimit(paths: string[], limit: number): string[] {
  return paths
    .flatMap((path) => {
      const lines = lineCount(join(ROOT, path));
      return lines > limit ? [`${path}: ${lines} lines`] : [];
    })
    .sort();
}

describe('source structure', () => {
  it('keeps every file under src/ at 500 lines or fewer', () => {
    const offenders = overLimit(filesUnder('src'), 500);
    expect(offenders, `over 500 lines:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('keeps every test file under test/ at 800 lines or fewer', () => {
    const offenders = overLimit(
      filesUnder('test').filter((path) => /\.test\.tsx?$/.test(path)),
      800,
    );
    expect(offenders, `over 800 lines:\n${offenders.join('\n')}`).toEqual([]);
  });
});
