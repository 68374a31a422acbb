/** `tiller exec` arguments: parsed by the shared parser (src/runtime/cli-args.ts); the usage text is exec's own. */
export { type ExecArgs, execOverrides, parseExecArgs } from '../cli-args.js';

export const EXEC_USAGE = `Usage: tiller exec [OPTIONS] [PROMPT]
       tiller exec resume [OPTIONS] <ID|--last> [PROMPT]

Runs one turn without a UI: progress on stderr, the final answer on stdout. \`resume\` continues a
saved session (its id, or with --last the newest one of this directory) with the whole history.
PROMPT "-" (or no PROMPT with piped stdin) reads the prompt from stdin. PROMPT with stdin piped
(\`cat log | tiller exec "explain this"\`) or redirected from a file sends the prompt, then the
text from stdin as context, in one message.

Runs only inside a Git repository unless --skip-git-repo-check is given, as Codex.

Options:
  --json                  print one JSON event per line on stdout (also --experimental-json)
  --last                  (resume) the newest session of this directory
  -m, --model MODEL       the model to use
  -p, --profile NAME      use [profiles.NAME] of config.toml
  -C, --cd DIR            work in DIR (as if started there); paths in other options stay relative to here
  --base-url URL          a Responses API server (default: OPENAI_BASE_URL, else OpenAI or offline)
  --oss                   the local Ollama or LM Studio server (whichever is running)
  -s, --sandbox MODE      where commands may write: read-only, workspace-write (default), danger-full-access
  -a, --ask-for-approval POLICY
                          untrusted, on-request (default), never; with no one to ask, a command that
                          needs approval does not run; MCP tools run unless untrusted
  --full-auto             workspace-write sandbox, on-request approvals (commands run in the sandbox)
  --dangerously-bypass-approvals-and-sandbox
                          no sandbox and no approvals: every command runs with your rights
  --add-dir DIR           another writable directory for workspace-write (repeatable)
  -i, --image PATH[,...]  attach local images before the prompt (repeatable)
  -c, --config KEY=VALUE  override a config.toml key (dotted path, TOML value: -c model_reasoning_effort=high,
                          -c sandbox_workspace_write.network_access=true; openai_base_url is --base-url)
  --output-schema FILE    a JSON Schema the final message must follow (sent to the model; a message that
                          does not follow it fails the run, exit 1)
  -o, --output-last-message FILE
                          write the last agent message to FILE
  --skip-git-repo-check   run outside a Git repository too
  --ephemeral             keep no session file (the run cannot be resumed)
  -h, --help              print this help

Options given to resume override what the session recorded (model, sandbox, approvals).
Codex's flags that mean nothing here (--color, --enable, --thread-source, ...) are accepted
and named once on stderr as ignored. CODEX_API_KEY, when set, is the API key (as Codex exec).

Exit codes: 0 completed, 1 the turn failed or no such session, 2 usage or config error, 3 the
server refused the API key (HTTP 401/403), 4 the server could not be reached (connection refused,
DNS, TLS), 130 interrupted (SIGINT; SIGTERM and SIGHUP give 143 and 129).
`;
