import { Rows } from './Rows.js';

/** The composer rows; the App places the real terminal cursor at the caret (IME windows open there). */
export function Composer({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
