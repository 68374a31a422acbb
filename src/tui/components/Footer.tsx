import { Rows } from './Rows.js';

/** `? for shortcuts` (or the mode / quit hint) and the model, `offline`, the Vim mode. */
export function Footer({ line }: { line: string }): React.JSX.Element {
  return <Rows lines={['', line]} />;
}
