/** `tiller exec` arguments. */
import { resolve } from 'node:path';
import { APPROVAL_POLICIES, type ApprovalPolicy, SANDBOX_MODES, type SandboxMode } from '../../protocol/api.js';

export const EXEC_USAGE = `Usage: tiller exec [OPTIONS] [PROMPT]

Runs one turn without a UI: progress on stderr, the final answer on stdout.
PROMPT "-" (or no PROMPT with piped stdin) reads the prompt from stdin.

Options:
  --json                  print one JSON event per line on stdout
  -m, --model MODEL       the model to use
  --base-url URL          a Responses API server (default: OPENAI_BASE_URL, else OpenAI or offline)
  -s, --sandbox MODE      where commands may write: read-only, workspace-write (default), danger-full-access
  -a, --ask-for-approval POLICY
                          untrusted, on-request (default), never; with no one to ask, an approval declines
  --full-auto             workspace-write sandbox, on-request approvals (commands run in the sandbox)
  --dangerously-bypass-approvals-and-sandbox
                          no sandbox and no approvals: every command runs with your rights
  --add-dir DIR           another writable directory for workspace-write (repeatable)
  -i, --image PATH[,...]  attach local images before the prompt (repeatable)
  -h, --help              print this help
`;

export interface ExecArgs {
  json: boolean;
  model: string | null;
  baseUrl: string | null;
  approvalPolicy: ApprovalPolicy | null;
  sandboxMode: SandboxMode | null;
  addDirs: string[];
  /** `--image/-i PATH` (repeatable, or comma-separated as Codex): local images sent before the prompt. */
  images: string[];
  /** `-` means stdin; null means none was given. */
  prompt: string | null;
}

export function parseExecArgs(argv: readonly string[]): ExecArgs | { error: string } | { help: true } {
  const args: ExecArgs = { json: false, model: null, baseUrl: null, approvalPolicy: null, sandboxMode: null, addDirs: [], images: [], prompt: null };
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
    else if (arg === '--full-auto') {
      args.sandboxMode = 'workspace-write';
      args.approvalPolicy = 'on-request';
    } else if (arg === '--dangerously-bypass-approvals-and-sandbox' || arg === '--yolo') {
      args.sandboxMode = 'danger-full-access';
      args.approvalPolicy = 'never';
    } else if (arg === '--sandbox' || arg === '-s' || arg.startsWith('--sandbox=')) {
      const v = value();
      if (v === null || !(SANDBOX_MODES as readonly string[]).includes(v)) return { error: `--sandbox takes one of ${SANDBOX_MODES.join(', ')}` };
      args.sandboxMode = v as SandboxMode;
    } else if (arg === '--ask-for-approval' || arg === '-a' || arg.startsWith('--ask-for-approval=')) {
      const v = value();
      if (v === null || !(APPROVAL_POLICIES as readonly string[]).includes(v)) return { error: `--ask-for-approval takes one of ${APPROVAL_POLICIES.join(', ')}` };
      args.approvalPolicy = v as ApprovalPolicy;
    } else if (arg === '--add-dir' || arg.startsWith('--add-dir=')) {
      const v = value();
      if (v === null || v.length === 0) return { error: 'missing value for --add-dir' };
      args.addDirs.push(resolve(v));
    }
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
