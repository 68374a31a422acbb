/**
 * The import rules `npm test` checks (docs/architecture.md "The dependency rule"): no cycle, type-only
 * imports included, and the layers point one way: tui → runtime → protocol.
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
