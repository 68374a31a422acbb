/**
 * Starts a shell command and a hook that both outlive this process unless Tiller kills them, prints
 * their pids, then exits with process.exit() (as the TUI does on quit).
 */
import { runUserPromptSubmitHooks } from '../../../src/runtime/core/hooks.js';
import { runShellCommand } from '../../../src/runtime/commands/run.js';
import { trackedProcessGroups } from '../../../src/runtime/commands/process-groups.js';

const signal = new AbortController().signal;
void runShellCommand({ command: 'sleep 30', cwd: process.cwd(), signal });
const request = {
  session_id: 's',
  turn_id: 't',
  cwd: process.cwd(),
  transcript_path: null,
  model: 'm',
  permission_mode: 'default' as const,
  prompt: '',
};
void runUserPromptSubmitHooks(['sleep 30'], request, signal);
while (trackedProcessGroups().length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
process.stdout.write(`${JSON.stringify(trackedProcessGroups())}\n`);
process.exit(0);
