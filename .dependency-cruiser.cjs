/**
 * The import rules `npm test` checks (docs/architecture.md "The dependency rule"): no cycle, type-only
 * imports included, the layers point one way: tui → runtime → protocol, and a model wire is reached
 * only through its registry ("How to add a wire").
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle, even of types only, ties modules that should be read and changed apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-is-the-bottom',
      comment: 'The protocol holds the shapes both sides share; it knows neither the runtime nor the TUI.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { path: '^src/(runtime|tui)/' },
    },
    {
      name: 'runtime-below-tui',
      comment: 'The runtime serves any client over the app-server protocol; it never reaches into the TUI.',
      severity: 'error',
      from: { path: '^src/runtime/' },
      to: { path: '^src/tui/' },
    },
    {
      name: 'layers-below-the-entry',
      comment:
        'cli.ts (and any cli-*.ts beside it) is the command-line entry above the front ends; the runtime and the protocol serve every front end, so they never import it (the argv parser is src/runtime/cli-args.ts).',
      severity: 'error',
      from: { path: '^src/(runtime|protocol)/' },
      to: { path: '^src/cli[^/]*\\.ts$' },
    },
    {
      name: 'tools-through-the-registry',
      comment: 'The runtime reaches a tool only through tools/registry.ts (docs/architecture.md, "How to add a tool").',
      severity: 'error',
      from: { path: '^src/runtime/', pathNot: '^src/runtime/tools/' },
      to: { path: '^src/runtime/tools/[^/]+/' },
    },
    {
      name: 'a-tool-stands-alone',
      comment: 'A tool folder does not reach into another tool: what two tools share lives in commands/ or sandbox/.',
      severity: 'error',
      from: { path: '^src/runtime/tools/([^/]+)/' },
      to: { path: '^src/runtime/tools/[^/]+/', pathNot: '^src/runtime/tools/$1/' },
    },
    {
      name: 'command-infrastructure-below-tools',
      comment: 'Running, parsing and sandboxing commands serves every tool and the user shell; it knows neither.',
      severity: 'error',
      from: { path: '^src/runtime/(commands|sandbox)/' },
      to: { path: '^src/runtime/(tools|core)/' },
      name: 'wires-behind-the-registry',
      comment:
        'A wire (src/runtime/model/wires/<id>/) is reached only through the registry, which only model/create.ts imports: the rest of Tiller uses model/create.ts and the ModelClient contract, so no caller depends on which API it talks to (docs/architecture.md "How to add a wire").',
      severity: 'error',
      from: { pathNot: '^src/runtime/model/(create\\.ts$|wires/)' },
      to: { path: '^src/runtime/model/wires/' },
    },
    {
      name: 'create-through-the-registry',
      comment: 'model/create.ts picks a wire from the registry (wires/index.ts), so a wire left out of it cannot be chosen.',
      severity: 'error',
      from: { path: '^src/runtime/model/create\\.ts$' },
      to: { path: '^src/runtime/model/wires/', pathNot: '^src/runtime/model/wires/index\\.ts$' },
    },
    {
      name: 'registry-takes-wire-entries',
      comment: "The registry lists each wire by its entry, wires/<id>/wire.ts; the rest of the folder is the wire's own.",
      severity: 'error',
      from: { path: '^src/runtime/model/wires/index\\.ts$' },
      to: { path: '^src/runtime/model/wires/[^/]+/', pathNot: '^src/runtime/model/wires/[^/]+/wire\\.ts$' },
    },
    {
      name: 'wire-imports-no-other-wire',
      comment:
        'Wires are apart: what two of them share lives in src/runtime/model/ (errors, retry, proxy, http fetch, SSE reader, idle wait), so one can change or go without touching another. Nor does a wire import the registry.',
      severity: 'error',
      from: { path: '^src/runtime/model/wires/([^/]+)/', pathNot: '^src/runtime/model/wires/offline/' },
      to: { path: '^src/runtime/model/wires/', pathNot: '^src/runtime/model/wires/$1/' },
    },
    {
      name: 'offline-builds-only-on-responses',
      comment:
        'The one exception: the offline wire is the Responses wire\'s client against a Responses server in process (docs/architecture.md "One streaming code path"), so it may import that client and the Responses SSE frames, and nothing else of another wire.',
      severity: 'error',
      from: { path: '^src/runtime/model/wires/offline/' },
      to: {
        path: '^src/runtime/model/wires/',
        pathNot: '^src/runtime/model/wires/(offline/|responses/(client|sse-events)\\.ts$)',
      },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
