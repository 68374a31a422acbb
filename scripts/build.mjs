// Bundles src/cli.ts into dist/ as split ESM chunks: start-up resolves a few files instead of
// Ink's and React's hundreds, and each command loads only its own chunk. Files are overwritten in
// place; `--clean` then removes chunks of earlier builds (not done by the test setup, so a test
// run building concurrently never loses the chunks its processes are loading).
// `--if-esbuild` (the `prepare` script): where esbuild is absent, as after `npm ci --omit=dev`,
// say so and exit 0 instead of failing the install.
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

let build;
try {
  ({ build } = await import('esbuild'));
} catch (error) {
  if (!process.argv.includes('--if-esbuild') || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  const built = existsSync(`${root}/dist/tiller.mjs`);
  console.warn(
    built
      ? 'tiller: esbuild is not installed (dev dependencies omitted), so dist/ is not rebuilt; the existing dist/ is used as it is.'
      : 'tiller: esbuild is not installed (dev dependencies omitted), so dist/ is not built and bin/tiller cannot run yet.\n' +
          'tiller: to build it, install the dev dependencies: `npm install --include=dev` (its prepare step builds dist/), or `npm run build` once they are in.',
  );
  process.exit(0);
}

// Ink's `yoga-layout` is src/tui/terminal/yoga-layout.ts, which loads the same Yoga without touching
// `fetch` (that alone costs start-up about 30 ms); its own import of yoga-layout/load resolves as usual.
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: `${root}/src/tui/terminal/yoga-layout.ts` }));
  },
};

// Inside Ink, two modules of ours make the same frames with less work on each: its frame buffer
// (src/tui/terminal/ink-output.ts: no grid of cell objects, no tokenizing of every line anew) and
// a memoized widest-line (it measures every text node on every frame).
const fromInk = /[\\/]node_modules[\\/]ink[\\/]build[\\/][^\\/]+\.js$/;
const inkFrames = {
  name: 'ink-frames',
  setup(b) {
    b.onResolve({ filter: /^\.\/output\.js$/ }, (args) =>
      fromInk.test(args.importer) ? { path: `${root}/src/tui/terminal/ink-output.ts` } : undefined,
    );
    b.onResolve({ filter: /^widest-line$/ }, (args) =>
      fromInk.test(args.importer) ? { path: `${root}/src/tui/terminal/widest-line.ts` } : undefined,
    );
  },
};

const result = await build({
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
  external: ['sharp'],
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs' },
  plugins: [yogaWithoutFetch, inkFrames],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    js: "import { createRequire as __tillerCreateRequire } from 'node:module'; const require = __tillerCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
  // V8 parses the whole first-frame chunk before it runs: without comments and blanks that is about a
  // third less (names stay, so stack traces and profiles still read).
  minifyWhitespace: true,
  minifySyntax: true,
});

// The shell parser's WebAssembly (src/runtime/commands/parse.ts looks beside its chunk first).
// Copied then renamed, so a process loading it during a concurrent build never reads half a file.
const require = createRequire(import.meta.url);
const wasmFiles = ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'].map((path) => require.resolve(path));
for (const file of wasmFiles) {
  const partial = `${root}/dist/${basename(file)}.${process.pid}.partial`;
  copyFileSync(file, partial);
  renameSync(partial, `${root}/dist/${basename(file)}`);
}

if (process.argv.includes('--clean')) {
  const current = new Set([...Object.keys(result.metafile.outputs), ...wasmFiles].map((file) => basename(file)));
  for (const file of readdirSync(`${root}/dist`)) if (!current.has(file)) rmSync(`${root}/dist/${file}`);
}
