/** Two process conventions the commands share: the exit code of a signal, and reading all of stdin. */
import { constants } from 'node:os';

/** 128 + the signal's number: how a shell reports "terminated by signal"; null for a signal this platform lacks. */
export function signalExitCode(signal: NodeJS.Signals): number | null {
  const number = constants.signals[signal];
  return number === undefined ? null : 128 + number;
}

/** All of stdin, as UTF-8 text. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
