/**
 * `tiller diff --turn N [--session ID]`: the patch of one turn (the workspace from its checkpoint
 * before to the one after), paths relative to the workspace, so `git apply` reproduces it
 * elsewhere. Without `--session`, the newest thread recorded in this directory.
 */
import { realpathSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfigOrReport } from '../config.js';
import { findRollout, rolloutFiles } from '../rollout/paths.js';
import { readRolloutDeferred } from '../rollout/reader.js';
import type { DeferredSnapshot } from '../rollout/reducer.js';
import { CheckpointStore } from './store.js';

const USAGE = `Usage: tiller diff --turn N [--session ID]

Prints the patch of turn N (1 is the thread's first turn) as git apply takes it.

Options:
  --turn N        the turn, counted from 1
  --session ID    the thread (default: the newest one recorded in this directory)
  -h, --help      show this help
`;

/** How many of the newest rollouts are looked at for this directory's thread. */
const NEWEST_LOOKED_AT = 200;

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

async function snapshotOf(home: string, session: string | undefined): Promise<DeferredSnapshot | string> {
  if (session !== undefined) {
    const path = await findRollout(home, session);
    if (path === null) return `no session ${session}`;
    return (await readRolloutDeferred(path)).snapshot;
  }
  const here = real(process.cwd());
  let looked = 0;
  for await (const file of rolloutFiles(home)) {
    if (++looked > NEWEST_LOOKED_AT) break;
    const { snapshot } = await readRolloutDeferred(file.path).catch(() => ({ snapshot: null }));
    if (snapshot !== null && real(snapshot.header.cwd) === here) return snapshot;
  }
  return `no session recorded in ${here} (name one with --session ID)`;
}

/** The patch, or why there is none. */
export async function turnPatch(home: string, turn: number, session?: string): Promise<{ patch: string } | { error: string }> {
  const snapshot = await snapshotOf(home, session);
  if (typeof snapshot === 'string') return { error: snapshot };
  const found = snapshot.turns[turn - 1];
  if (found === undefined) return { error: `the session has ${snapshot.turns.length} turns, not ${turn}` };
  const checkpoint = snapshot.checkpoints.find((c) => c.turnId === found.id);
  if (checkpoint?.before == null || checkpoint.after === null) {
    return { error: `turn ${turn} has no checkpoint${checkpoint?.note ? ` (${checkpoint.note})` : ''}` };
  }
  try {
    return { patch: await new CheckpointStore(home, checkpoint.workspace).patch(checkpoint.before, checkpoint.after) };
  } catch (error) {
    return { error: `the checkpoint store cannot give turn ${turn}: ${(error as Error).message}` };
  }
}

export async function main(argv: string[]): Promise<number> {
  let values: { turn?: string; session?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { turn: { type: 'string' }, session: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`tiller diff: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const turn = Number(values.turn);
  if (values.turn === undefined || !Number.isInteger(turn) || turn < 1) {
    process.stderr.write(
      `tiller diff: --turn takes a turn number from 1${values.turn === undefined ? '' : `, not '${values.turn}'`}\n\n${USAGE}`,
    );
    return 2;
  }
  const config = loadConfigOrReport();
  if (config === null) return 2;
  const result = await turnPatch(config.home, turn, values.session);
  if ('error' in result) {
    process.stderr.write(`tiller diff: ${result.error}\n`);
    return 1;
  }
  process.stdout.write(result.patch);
  return 0;
}
