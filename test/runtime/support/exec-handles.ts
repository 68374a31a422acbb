/**
 * Runs `tiller exec` in this process (argv after the script) and reports on stderr what still
 * holds the event loop once main() returned. Anything beyond stdio (an open socket, a pending
 * timer, a child) would keep the process alive after the turn ended.
 */
import { main } from '../../../src/runtime/exec/main.js';

const code = await main(process.argv.slice(2));
// Let the close callbacks of handles that already ended run (a reaped child's handle, a socket).
for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
process.stderr.write(`\nHANDLES ${JSON.stringify({ code, resources: process.getActiveResourcesInfo() })}\n`);
