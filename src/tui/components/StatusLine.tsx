import { Rows } from './Rows.js';

/** `• Working (Ns • esc to interrupt)` or the retry message, above the pending input. */
export function StatusLine({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
