/**
 * Where a chunk's old lines are in a file, found as Codex finds them: exact, then ignoring trailing
 * whitespace, then ignoring surrounding whitespace, then with typographic punctuation (dashes,
 * quotes, odd spaces) read as ASCII. Each pass is tried over the whole range before a looser one,
 * so a looser match never wins over a stricter one further on. An end-of-file chunk is tried at
 * the end first.
 */

const PUNCTUATION: Readonly<Record<string, string>> = (() => {
  const map: Record<string, string> = {};
  for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') map[c] = '-';
  for (const c of '\u2018\u2019\u201A\u201B') map[c] = "'";
  for (const c of '\u201C\u201D\u201E\u201F') map[c] = '"';
  for (const c of '\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000') map[c] = ' ';
  return map;
})();
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

export function normalisePunctuation(line: string): string {
  return line.trim().replace(PUNCTUATION_PATTERN, (c) => PUNCTUATION[c]!);
}

const PASSES: ReadonlyArray<(line: string) => string> = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  normalisePunctuation,
];

/**
 * The index at or after `start` where `pattern` begins in `lines`, or null. An empty pattern
 * matches at `start`.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number | null {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  const last = lines.length - pattern.length;
  const from = endOfFile ? last : start;
  for (const pass of PASSES) {
    const wanted = pattern.map(pass);
    // The first line is compared first: most positions fail there, cheaply.
    const head = wanted[0]!;
    for (let i = from; i <= last; i++) {
      if (pass(lines[i]!) !== head) continue;
      let ok = true;
      for (let j = 1; j < wanted.length; j++) {
        if (pass(lines[i + j]!) !== wanted[j]) {
          ok = false;
          break;
        }
      }
      if (ok) return i;
    }
  }
  // An end-of-file chunk not found at the end is looked for from `start`, as Codex falls back.
  return endOfFile && from > start ? seekSequence(lines, pattern, start, false) : null;
}
