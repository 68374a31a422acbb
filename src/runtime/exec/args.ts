/** `tiller exec` arguments. */
export const EXEC_USAGE = `Usage: tiller exec [OPTIONS] [PROMPT]

Runs one turn without a UI: progress on stderr, the final answer on stdout.
PROMPT "-" (or no PROMPT with piped stdin) reads the prompt from stdin.

Options:
  --json                  print one JSON event per line on stdout
  -m, --model MODEL       the model to use
  --base-url URL          a Responses API server (default: OPENAI_BASE_URL, else OpenAI or offline)
  --full-auto             run commands without asking (otherwise they are declined)
  -i, --image PATH[,...]  attach local images before the prompt (repeatable)
  -h, --help              print this help
`;

export interface ExecArgs {
  json: boolean;
  model: string | null;
  baseUrl: string | null;
  fullAuto: boolean;
  /** `--image/-i PATH` (repeatable, or comma-separated as Codex): local images sent before the prompt. */
  images: string[];
  /** `-` means stdin; null means none was given. */
  prompt: string | null;
}

export function parseExecArgs(argv: readonly string[]): ExecArgs | { error: string } | { help: true } {
  const args: ExecArgs = { json: false, model: null, baseUrl: null, fullAuto: false, images: [], prompt: null };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string | null => {
      const eq = arg.indexOf('=');
      if (eq >= 0) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined) return null;
      i += 1;
      return next;
    };
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    } else if (arg === '--help' || arg === '-h') return { help: true };
    else if (arg === '--json') args.json = true;
    else if (arg === '--full-auto') args.fullAuto = true;
    else if (arg === '--model' || arg === '-m' || arg.startsWith('--model=')) {
      const v = value();
      if (v === null) return { error: 'missing value for --model' };
      args.model = v;
    } else if (arg === '--base-url' || arg.startsWith('--base-url=')) {
      const v = value();
      if (v === null) return { error: 'missing value for --base-url' };
      args.baseUrl = v;
    } else if (arg === '--image' || arg === '-i' || arg.startsWith('--image=')) {
      const v = value();
      if (v === null || v.length === 0) return { error: 'missing value for --image' };
      args.images.push(...v.split(',').filter((path) => path.length > 0));
    } else if (arg !== '-' && arg.startsWith('-')) return { error: `unknown option '${arg}'. Try 'tiller exec --help'.` };
    else words.push(arg);
  }
  if (words.length > 0) args.prompt = words.join(' ');
  return args;
}
