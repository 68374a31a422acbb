/** The JSON depth limit: found by an iterative walk (any depth, no stack), named by its path. */
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, tooDeepPath, tooDeepWhere } from '../../src/protocol/json-depth.js';
import { formatPath } from '../../src/protocol/schemas.js';

/** `levels` nested objects `{ a: { a: … } }`, built without recursion. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('tooDeepPath', () => {
  it('passes the limit exactly and names the first container past it', () => {
    expect(tooDeepPath(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(tooDeepPath(nested(MAX_JSON_DEPTH - 1, []))).toBeNull();
    const path = tooDeepPath(nested(MAX_JSON_DEPTH, []));
    expect(path).toEqual(Array(MAX_JSON_DEPTH).fill('a'));
    expect(tooDeepPath(nested(3), 2)).toEqual(['a', 'a']);
    expect(tooDeepPath('text')).toBeNull();
    expect(tooDeepPath(null)).toBeNull();
  });

  it('walks arrays and objects alike, past shallow siblings, to the deep one', () => {
    const value = { wide: Array.from({ length: 1000 }, (_, i) => ({ i })), list: [0, 1, [2, [3, [4]]]] };
    expect(tooDeepPath(value, 4)).toEqual(['list', 2, 1, 1]);
    expect(tooDeepPath(value, 5)).toBeNull();
  });

  it('a million levels: no stack overflow', () => {
    expect(tooDeepPath(nested(1_000_000))?.length).toBe(MAX_JSON_DEPTH);
  });

  it('names a path by its first levels', () => {
    expect(tooDeepWhere(['outputSchema', 'a', 'a', 'a', 'a', 'a', 'a'], formatPath)).toBe('outputSchema.a.a.a.a.a…');
    expect(tooDeepWhere([1, 'path'], formatPath)).toBe('[1].path');
  });
});
