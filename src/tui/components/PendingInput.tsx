import { Rows } from './Rows.js';

/** Pending steers, rejected steers and queued follow-ups (docs/codex-parity.md#pending-steer-rows). */
export function PendingInput({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
