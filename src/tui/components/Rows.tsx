import { Text } from 'ink';

/**
 * Pre-wrapped rows (each at most the terminal width) as one Text block. Empty rows are drawn as a
 * space: Ink gives an empty Text no height, and the screen counts every row (caret position).
 */
export function Rows({ lines }: { lines: readonly string[] }): React.JSX.Element | null {
  if (lines.length === 0) return null;
  return <Text>{lines.map((line) => (line === '' ? ' ' : line)).join('\n')}</Text>;
}
