/** What each platform's launcher (bwrap.ts, seatbelt.ts) is given by sandbox.ts. */

/** Real paths: the writable roots (outermost only, a parent first) and the `.git`s kept read-only in each. */
export interface SandboxLayout {
  writableRoots: Array<{ root: string; readOnly: string[] }>;
}
