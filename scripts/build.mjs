// Bundles src/cli.ts into dist/ as split ESM chunks: start-up resolves a few files instead of
// Ink's and React's hundreds, and each command loads only its own chunk. Files are overwritten in
// place; `--clean` then removes chunks of earlier builds (not done by the test setup, so a test
// run building concurrently never loses the chunks its processes are loading).
// `--if-stale` (`npm start`): build only when a source file, package.json or this script is newer
// than the bundle, so a fresh clone's `npm install && npm start` builds once and later starts do not.
// (No `prepare` script: the packed manifest would keep it, and every global install of the tarball
// would warn about an install script it does not run.)
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestInputMs() {
  let newest = Math.max(statSync(`${root}/package.json`).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(`${root}/src`);
  return newest;
}

if (
  process.argv.includes('--if-stale') &&
  existsSync(`${root}/dist/tiller.mjs`) &&
  statSync(`${root}/dist/tiller.mjs`).mtimeMs >= newestInputMs()
) {
  process.exit(0);
}

const { build } = await import('esbuild');

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
  // The diff highlighter's worker thread is a file of its own (src/tui/diff/diff-colours.ts starts it).
  entryPoints: { tiller: 'src/cli.ts', 'highlight-worker': 'src/tui/diff/highlight-worker.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
  // Native or optional modules stay outside the bundle and load from node_modules on first use.
  external: ['sharp', '@lydell/node-pty'],
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
