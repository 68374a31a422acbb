/**
 * Removes secrets from text Tiller stores or reports (error messages, history, feedback): a
 * server's 401 may echo the API key, and a user may paste a token into a prompt.
 */

export const REDACTED = '[REDACTED]';

/** Shorter values (a dummy key such as `x`) would blank out ordinary words. */
const MIN_SECRET_LENGTH = 8;

/**
 * Values known to be secret (the configured API key). Module-level so the places that write text
 * need no config at hand; registered once where the config is loaded.
 */
const registered: string[] = [];

export function registerSecret(value: string): void {
  if (value.length >= MIN_SECRET_LENGTH && !registered.includes(value)) registered.push(value);
}

/**
 * Header-like labels (any case): the label stays, its value goes. Values under 8 characters are
 * prose ("bearer of bad news", "Authorization: denied"), not tokens.
 */
const LABELLED = /(\bauthorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;}]{8,}|(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** Whole token shapes: OpenAI (`sk-…`, `sk-proj-…`), GitHub (`ghp_…`, `github_pat_…`), AWS access key ids. */
const TOKENS = /\bsk-[A-Za-z0-9_-]{20,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g;

/** Cheap enough for every error message and history line: a few `includes` and two regex passes. */
export function redactSecrets(text: string, secrets: readonly string[] = registered): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(LABELLED, (_match, auth: string | undefined, bearer: string | undefined) => `${auth ?? bearer}${REDACTED}`)
    .replace(TOKENS, REDACTED);
}
