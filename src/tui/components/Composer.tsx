import { useCursor } from 'ink';
import { Rows } from './Rows.js';

/**
 * The composer rows. The real terminal cursor is placed at the caret (`cursor`, relative to the top
 * of the live area) so IME candidate windows open where the text goes; undefined hides it.
 */
export function Composer({ lines, cursor }: { lines: string[]; cursor: { x: number; y: number } | undefined }): React.JSX.Element {
  const { setCursorPosition } = useCursor();
  setCursorPosition(cursor);
  return <Rows lines={lines} />;
}
