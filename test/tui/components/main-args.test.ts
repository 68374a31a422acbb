import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../../../src/tui/main.js';

describe('parseTuiArgs', () => {
  it('reads --model and --base-url in both spellings', () => {
    expect(parseTuiArgs([])).toEqual({ overrides: {} });
    expect(parseTuiArgs(['--model', 'gpt-x', '--base-url=http://127.0.0.1:1/v1'])).toEqual({
      overrides: { model: 'gpt-x', baseUrl: 'http://127.0.0.1:1/v1' },
    });
    expect(parseTuiArgs(['-m', 'small'])).toEqual({ overrides: { model: 'small' } });
  });

  it('explains unknown options and missing values', () => {
    expect(parseTuiArgs(['--frob'])).toBe("unknown option '--frob'");
    expect(parseTuiArgs(['--model'])).toBe("option '--model' needs a value");
  });
});
