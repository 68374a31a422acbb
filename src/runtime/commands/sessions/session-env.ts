/** The environment a session's process gets on top of the shell environment policy's (environment.ts). */
/** Codex's variables for a session's process: plain output, no pager waiting for a key. */
export const EXEC_SESSION_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  LANG: 'C.UTF-8',
  LC_CTYPE: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  COLORTERM: '',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GH_PAGER: 'cat',
};
