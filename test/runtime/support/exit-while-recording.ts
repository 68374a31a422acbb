/**
 * Starts a checkpoint record of a workspace big enough to take a while, waits until its `git add`
 * holds the index lock, prints the running gits' pids and the store's directory, then exits with
 * process.exit() (as the TUI does when a record is still running at quit).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runningGitPids } from '../../../src/runtime/checkpoints/git.js';
import { CheckpointStore } from '../../../src/runtime/checkpoints/store.js';

const [home, ws] = process.argv.slice(2) as [string, string];
for (let d = 0; d < 20; d++) {
  mkdirSync(join(ws, `d${d}`));
  for (let i = 0; i < 200; i++) writeFileSync(join(ws, `d${d}`, `f${i}`), `${d}-${i}\n`.repeat(2000));
}
const store = new CheckpointStore(home, ws);
void store.record();
while (!existsSync(join(store.dir, 'index.lock'))) await new Promise((resolve) => setTimeout(resolve, 1));
process.stdout.write(`${JSON.stringify({ pids: runningGitPids(), dir: store.dir })}\n`);
process.exit(0);
