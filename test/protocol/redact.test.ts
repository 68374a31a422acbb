import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, registerSecret } from '../../src/protocol/redact.js';

describe('redactSecrets', () => {
  it('removes each configured secret verbatim, wherever it appears', () => {
    const key = 'local-key-12345';
    expect(redactSecrets(`Incorrect API key provided: ${key}. (key=${key})`, [key])).toBe(
      `Incorrect API key provided: ${REDACTED}. (key=${REDACTED})`,
    );
  });

  it('leaves secrets shorter than 8 characters alone: a dummy key would blank out words', () => {
    expect(redactSecrets('a dummy reply', ['dummy'])).toBe('a dummy reply');
    registerSecret('x');
    expect(redactSecrets('x marks the spot')).toBe('x marks the spot');
  });

  it('uses the registered secrets by default', () => {
    registerSecret('registered-secret-value');
    expect(redactSecrets('echo registered-secret-value')).toBe(`echo ${REDACTED}`);
    // Passing the list explicitly uses that list.
    expect(redactSecrets('echo registered-secret-value', [])).toBe('echo registered-secret-value');
  });

  it('removes anything shaped like an OpenAI key', () => {
    expect(redactSecrets('key sk-abcdefghijklmnopqrstuvwx, then sk-proj-AbC_123-xyzXYZ0987654321abc.', [])).toBe(
      `key ${REDACTED}, then ${REDACTED}.`,
    );
    // Too short to be a key, or not at a word start.
    expect(redactSecrets('sk-short and task-abcdefghijklmnopqrstuvwxyz', [])).toBe('sk-short and task-abcdefghijklmnopqrstuvwxyz');
  });

  it('removes Bearer tokens and Authorization values, keeping the label', () => {
    expect(redactSecrets('sent Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc_DEF-123 twice', [])).toBe(`sent Bearer ${REDACTED} twice`);
    expect(redactSecrets('Authorization: Basic dXNlcjpwYXNzd29yZA==', [])).toBe(`Authorization: ${REDACTED}`);
    expect(redactSecrets('{"authorization":"token abcdef0123456789"}', [])).toBe(`{"authorization":"${REDACTED}"}`);
    // Prose is not a token.
    expect(redactSecrets('the bearer of bad news; Authorization: denied', [])).toBe('the bearer of bad news; Authorization: denied');
  });

  it('removes GitHub tokens and AWS access key ids', () => {
    const gh = `ghp_${'a1B2'.repeat(9)}`;
    const pat = `github_pat_11ABCDEFG0123456789_${'x'.repeat(40)}`;
    expect(redactSecrets(`tokens ${gh} ${pat} AKIAIOSFODNN7EXAMPLE`, [])).toBe(`tokens ${REDACTED} ${REDACTED} ${REDACTED}`);
  });

  it('leaves text without secrets unchanged', () => {
    const text = 'unexpected status 500: upstream timed out after 30s (request id req_123)\nretrying with model gpt-5.1-codex';
    expect(redactSecrets(text, ['some-long-secret'])).toBe(text);
    expect(redactSecrets('', [])).toBe('');
  });
});
