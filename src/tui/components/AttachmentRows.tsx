import { Rows } from './Rows.js';

/** One row per attached image or audio file, above the composer. */
export function AttachmentRows({ lines }: { lines: string[] }): React.JSX.Element {
  return <Rows lines={lines} />;
}
