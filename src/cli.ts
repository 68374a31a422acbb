/**
 * Entry point: routes the command and loads only that command's code (each is its own chunk in
 * the bundle), so `--version`, `--help`, a usage error and the TUI's first frame don't pay for
 * sharp or openai. A first word that is not a command is the TUI's: an option, or the prompt
 * (`tiller "fix the build"` starts the UI with that message sent).
 */
import { resolve } from 'node:path';
import { changeDirectory, parseTuiArgs, routeCommand, TILLER_USAGE } from './runtime/cli-args.js';
import { errorMessage } from './error-message.js';
import { importWithLiveRendering } from './tui/live-render.js';
import { TILLER_VERSION } from './version.js';

/** For the commands that live long; node:v8 costs `--version` and `--help` about 2 ms, so it loads here. */
async function capYoungGeneration(): Promise<void> {
  (await import('./young-generation.js')).capYoungGeneration();
}

function usageError(message: string): number {
  process.stderr.write(`tiller: ${message}. Try 'tiller --help'.\n`);
  return 2;
}

async function run(argv: string[]): Promise<number> {
  const route = routeCommand(argv);
  switch (route.command) {
    case 'version':
      process.stdout.write(`tiller ${TILLER_VERSION}\n`);
      return 0;
    case 'help':
      process.stdout.write(TILLER_USAGE);
      return 0;
    case 'exec':
      await capYoungGeneration();
      return (await import('./runtime/exec/main.js')).main(route.argv);
    case 'review':
      await capYoungGeneration();
      return (await import('./runtime/exec/review.js')).main(route.argv);
    case 'app-server':
      await capYoungGeneration();
      return (await import('./runtime/app-server-stdio.js')).main(route.argv);
    case 'inspect':
      return (await import('./runtime/inspect-command.js')).main(route.argv);
    case 'diff':
      return (await import('./runtime/checkpoints/diff-command.js')).main(route.argv);
    case 'tui':
    case 'resume': {
      const args = parseTuiArgs(route.argv, { resume: route.command === 'resume' });
      if (typeof args === 'string') return usageError(args);
      if (args.help) {
        process.stdout.write(TILLER_USAGE);
        return 0;
      }
      if (args.version) {
        process.stdout.write(`tiller ${TILLER_VERSION}\n`);
        return 0;
      }
      // Image paths are relative to where tiller was started, so they resolve before -C.
      const images = (args.images ?? []).map((path) => resolve(path));
      if (args.cd !== undefined) {
        const problem = changeDirectory(args.cd);
        if (problem !== null) return usageError(`-C: ${problem}`);
      }
      await capYoungGeneration();
      const tui = await importWithLiveRendering(() => import('./tui/main.js'));
      return tui.runTui(args, images);
    }
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tiller: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);
