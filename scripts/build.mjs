// Bundles src/cli.ts into dist/ as split ESM chunks: start-up resolves a few files instead of
// Ink's and React's hundreds, and each command loads only its own chunk. Files are overwritten in
// place (no clean step) so a test run building concurrently never sees an empty dist/.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: { tiller: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
  // Native or optional modules stay outside the bundle and load from node_modules on first use.
  external: ['sharp', 'node-pty'],
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    js: "import { createRequire as __tillerCreateRequire } from 'node:module'; const require = __tillerCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
