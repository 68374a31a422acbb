import { Rows } from './Rows.js';

/** The `/`, `@` or `$` popup below the composer. */
export function Popup({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
