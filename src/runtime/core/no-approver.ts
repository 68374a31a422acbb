/**
 * No one can answer an approval: the front end set no handler (`tiller exec`, a client that takes no
 * server requests). Distinct from a decline, so a tool never reports a refusal nobody made, and may
 * follow the approval policy instead.
 */
export class NoApproverError extends Error {
  constructor() {
    super('no one is here to approve it');
    this.name = 'NoApproverError';
  }
}
