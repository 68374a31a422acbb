import { Rows } from './Rows.js';

/** Pending steers, rejected steers and queued follow-ups (reference §2.5). */
export function PendingInput({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
