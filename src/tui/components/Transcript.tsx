import { Static, Text } from 'ink';
import type { StaticItem } from './printer.js';

/**
 * Finished cells, printed once into the scrollback by Ink's <Static> and never rewritten. Empty rows
 * are a space: Ink gives an empty Text no height, and a one-row blank item must still print.
 */
export function Transcript({ items, generation }: { items: StaticItem[]; generation: number }): React.JSX.Element {
  return (
    <Static key={generation} items={items}>
      {(item) => <Text key={item.key}>{item.lines.map((line) => (line === '' ? ' ' : line)).join('\n')}</Text>}
    </Static>
  );
}
