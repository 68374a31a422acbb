/**
 * Entry point: parses the command and loads only that command's code (each is its own chunk in
 * the bundle), so `--version` and the TUI's first frame don't pay for sharp or openai.
 */
import { errorMessage } from './error-message.js';
import { importWithLiveRendering } from './tui/live-render.js';
import { TILLER_VERSION } from './version.js';

const HELP = `Tiller ${TILLER_VERSION} — a terminal chat client for developers

Usage:
  tiller [--model M] [--base-url URL] [-s SANDBOX] [-a APPROVAL] [--full-auto]
                                          the interactive terminal UI
  tiller exec [--json] [--model M] [-s SANDBOX] [-a APPROVAL] [--full-auto] PROMPT
                                          one turn without a UI (PROMPT "-" or piped stdin: read stdin)
  tiller app-server                       the runtime over stdio (JSON-RPC 2.0, one message per line)
  tiller inspect [FILE]                   print the Responses input for UserInput[] JSON (stdin or FILE)
  tiller --help | --version

Sandbox (-s, --sandbox): read-only | workspace-write (default) | danger-full-access
Approvals (-a, --ask-for-approval): untrusted | on-request (default) | never
  --full-auto = workspace-write + on-request; --dangerously-bypass-approvals-and-sandbox = neither

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL         a Responses API server; with neither, the embedded offline model
  TILLER_HOME                             config and history (default ~/.tiller); config in config.toml
`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case '--version':
    case '-V':
      process.stdout.write(`tiller ${TILLER_VERSION}\n`);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'exec':
      return (await import('./runtime/exec/main.js')).main(rest);
    case 'app-server':
      return (await import('./runtime/app-server-stdio.js')).main(rest);
    case 'inspect':
      return (await import('./protocol/inspect-command.js')).main(rest);
    default:
      if (command !== undefined && !command.startsWith('-')) {
        process.stderr.write(`tiller: unknown command '${command}'. Try 'tiller --help'.\n`);
        return 2;
      }
      return (await importWithLiveRendering(() => import('./tui/main.js'))).main(argv);
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
