// Bundles the CLI that `tsc` compiled into dist/ into a few files, for start-up time: a one-shot `ocrag search`
// loaded ~75 modules one by one (resolve, stat, read, compile each), a tenth of its run. Module loading is the
// same code either way; dist/ keeps the per-module output for the hooks entry and for reading.
//
// The bundle lives in dist/cli/ (main.js replaced in place, workers and shared chunks beside it), so paths the
// code takes relative to its own file (../../package.json, ../../hooks, sibling worker modules) stay right.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const out = path.join(dist, 'cli');

// JavaScript that a search or an import loads every time: bundled (LanceDB's JavaScript and apache-arrow took
// ~0.1 s to load module by module; LanceDB's native binary stays a package of its own). Every other package
// (WASM, large and lazily loaded, or resolved at run time) stays a normal import from node_modules.
const BUNDLED_PACKAGES = new Set(['commander', '@huggingface/tokenizers', '@lancedb/lancedb', 'apache-arrow']);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const BANNER = "import { createRequire as __ocragRequire } from 'node:module'; const require = __ocragRequire(import.meta.url);";
// The bundle replaces tsc's main.js: bundling it again would bundle a bundle whose chunks are about to go.
if (fs.readFileSync(path.join(out, 'main.js'), 'utf8').includes(BANNER)) {
  console.error('dist/cli/main.js is already bundled: run "npm run build" (tsc, then this script)');
  process.exit(1);
}
// The index panel's page is plain HTML, CSS and JavaScript read at run time: tsc compiles none of it.
fs.cpSync(path.join(root, 'src', 'ui', 'static'), path.join(dist, 'ui', 'static'), { recursive: true });
for (const file of fs.readdirSync(out)) if (/^chunk-.*\.js(\.map)?$/.test(file)) fs.rmSync(path.join(out, file));

await build({
  entryPoints: {
    main: path.join(out, 'main.js'),
    'static-worker': path.join(dist, 'embed', 'runtime', 'static-worker.js'),
    'teacher-worker': path.join(dist, 'embed', 'recipe', 'teacher-worker.js'),
  },
  outdir: out,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS (commander) calls require() for Node built-ins, which an ES module lacks.
  banner: { js: BANNER },
  plugins: [
    {
      // dist/store/arrow.js takes apache-arrow through require(), the copy LanceDB's JavaScript requires: in the
      // bundle both must be the one CommonJS module, or LanceDB's instanceof checks fail.
      name: 'one-apache-arrow',
      setup(b) {
        b.onLoad({ filter: /[\\/]dist[\\/]store[\\/]arrow\.js$/ }, () => ({
          contents: "import arrow from 'apache-arrow'; export default arrow;",
          loader: 'js',
          resolveDir: root,
        }));
        b.onResolve({ filter: /^apache-arrow$/ }, () => ({ path: path.join(root, 'node_modules', 'apache-arrow', 'Arrow.node.js') }));
      },
    },
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('node:') || !BUNDLED_PACKAGES.has(packageOf(args.path))) return { path: args.path, external: true };
          return undefined;
        });
      },
    },
  ],
});
