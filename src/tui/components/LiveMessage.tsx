import { Rows } from './Rows.js';

/** The streaming answer (markdown rows not yet printed) and the running command's tail. */
export function LiveMessage({ agentRows, commandRows }: { agentRows: string[]; commandRows: string[] }): React.JSX.Element {
  return (
    <>
      <Rows lines={agentRows} />
      <Rows lines={commandRows} />
    </>
  );
}
