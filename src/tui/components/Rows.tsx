import { Text } from 'ink';

/**
 * Pre-wrapped rows (each at most the terminal width) as one Text block. Empty rows are drawn as a
 * space: Ink gives an empty Text no height, and the screen counts every row (caret position). A
 * section with no rows keeps its (empty, so zero-height) Text: the status line or a prompt showing
 * up then changes a text, where a new element would make Ink build layout nodes mid-frame (the
 * frame after Enter paid for that).
 */
export function Rows({ lines }: { lines: readonly string[] }): React.JSX.Element {
  return <Text>{lines.map((line) => (line === '' ? ' ' : line)).join('\n')}</Text>;
}
