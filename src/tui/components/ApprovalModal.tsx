import { Rows } from './Rows.js';

/** The shell approval prompt (or the /approvals picker): it takes the composer's place while the draft waits underneath. */
export function ApprovalModal({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
