// Bundles the CLI that `tsc` compiled into dist/ into a few files, for start-up time: a one-shot `ocrag search`
// loaded ~75 modules one by one (resolve, stat, read, compile each), a tenth of its run. Module loading is the
// same code either way; dist/ keeps the per-module output for the hooks entry and for reading.
//
// The bundle lives in dist/cli/ (main.js replaced in place, workers and shared chunks beside it), so paths the
// code takes relative to its own file (../../package.json, ../../hooks, sibling worker modules) stay right.
//
// A plain `ocrag search` starts at quick-search.cjs, a second bundle of one file with no chunks: it asks a running
// server and prints its answer. Through the shared chunks it loaded ~30 files, each resolved (a realpath), read and
// compiled, ~20 ms of CPU of a warm search's ~105 (issue 31). What it does not answer itself it leaves to the main
// bundle (search-cold.js, program.js), whose classes (errors, the workspace) are then the ones that meet. It is
// CommonJS, as is the installed command (ocrag.cjs, from cli/bin.ts), so that a warm search through that command never
// sets up Node's ES module loader nor the module wrapper of each Node built-in an import makes: ~10 ms of CPU.
import { build } from 'esbuild';
import crypto from 'node:crypto';
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
// The bundles replace tsc's main.js and search-cold.js: bundling them again would bundle a bundle whose chunks are
// about to go.
for (const entry of ['main.js', 'search-cold.js']) {
  if (fs.readFileSync(path.join(out, entry), 'utf8').includes(BANNER)) {
    console.error(`dist/cli/${entry} is already bundled: run "npm run build" (tsc, then this script)`);
    process.exit(1);
  }
}
// This build, in both bundles (session/warm/place.ts): a server answers only a CLI of its own build. The package's
// version too (util/version.ts), which the bundle would otherwise read from package.json at every start.
const define = {
  OCRAG_BUNDLE_BUILD: JSON.stringify(crypto.randomBytes(8).toString('hex')),
  OCRAG_BUNDLE_VERSION: JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version),
};
// The index panel's page is plain HTML, CSS and JavaScript read at run time: tsc compiles none of it.
fs.cpSync(path.join(root, 'src', 'ui', 'static'), path.join(dist, 'ui', 'static'), { recursive: true });
for (const file of fs.readdirSync(out)) if (/^chunk-.*\.js(\.map)?$/.test(file)) fs.rmSync(path.join(out, file));

// The three CommonJS bundles, each one file in dist/cli/. CommonJS has no import.meta: the bundles' code that reads
// import.meta.url gets the file's URL.
const COMMONJS = {
  outdir: out,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  banner: { js: "const __ocragUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { ...define, 'import.meta.url': '__ocragUrl' },
};

await build({
  entryPoints: { 'quick-search': path.join(out, 'quick-search.js') },
  sourcemap: true,
  ...COMMONJS,
  plugins: [
    {
      // Its import() of search-cold.js loads the main bundle's file beside it; every other import() in its modules is
      // code it never runs (cli/options.ts's openIndex), left where it is rather than bundled. A package would be
      // loaded by every search: none may come in.
      name: 'quick-entry-alone',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'dynamic-import' || args.path.startsWith('node:')) return { path: args.path, external: true };
          if (/^[^./]/.test(args.path)) return { errors: [{ text: `the quick entry of a search imports the package ${args.path} (${args.importer})` }] };
          return undefined;
        });
      },
    },
  ],
});

/** A run whole in one CommonJS file: import() of a module of ocrag inlined, packages as in the main bundle. */
function wholeBundle(name, entry) {
  return build({
    entryPoints: { [name]: entry },
    metafile: true,
    ...COMMONJS,
    // No comments or indentation: the source V8 reads (and keeps) at every start, ASCII only (a comment's arrow made
    // all 1.9 MB of it a two-byte string), about half the bytes. Names stay: errors and stack traces read the same.
    minifyWhitespace: true,
    // import.meta.resolve, which CommonJS lacks, is only for workers started from sources under tsx (worker-threads.ts).
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [oneApacheArrow(), externalPackages()],
  });
}

// The search the quick entry answers in its own process, whole in one CommonJS file (import() of a module of ocrag
// inlined, packages as in the main bundle), which the quick entry compiles with V8's code cache (util/code-cache.ts):
// through the main bundle a search loaded ~76 files and compiled each anew (~80 ms of CPU of ~480 on a loaded
// machine, with the cache). Made from tsc's search-cold.js before the main bundle replaces it.
const cold = await wholeBundle('search-cold', path.join(out, 'search-cold.js'));
// Code V8 compiles from its cache cannot import() on Node 20: a package is imported through importPackage. Any
// other import( is refused, but for importPackage's own, the source of a worker started under tsx, and a method
// named import (Workspace.import). The bundle has no line breaks to speak of: each import( is judged by the code
// just before and after it.
const AROUND = 80;
/** Whether the import( at `at` is one of those allowed, from the code around it. */
function importAllowed(text, at) {
  const close = text.indexOf(')', at) + 1;
  const before = text.slice(Math.max(0, at - AROUND), at);
  const call = text.slice(at, close);
  const lent = /lent\s*\?\s*lent\(name\)\s*:\s*$/.test(before) && call === 'import(name)';
  const tsxWorker = /tsx\.register\(\)/.test(text.slice(Math.max(0, at - AROUND), at + AROUND));
  const method = /(^|[;{}\s,])(async\s+)?$/.test(before) && /^import\([\w\s,]*\)\s*\{/.test(text.slice(at, close + 2));
  return lent || tsxWorker || method;
}
function refuseImports(file, text) {
  const refused = [];
  for (const m of text.matchAll(/(^|[^\w$.])import\(/g)) {
    const at = m.index + m[1].length;
    if (!importAllowed(text, at)) refused.push(text.slice(Math.max(0, at - AROUND), at + AROUND));
  }
  if (refused.length) {
    console.error(`${file} calls import(): use importPackage (src/util/import-package.ts):\n${refused.join('\n')}`);
    process.exit(1);
  }
}

/**
 * esbuild wraps a CommonJS module for each ES module that imports it (__toESM): a getter defined for each of its
 * exports, every time. Node's fs, imported by 62 of the bundle's modules (path by 42), was ~7,000 getters of a
 * one-shot search. The wrapper only forwards to the module, so one per module (and mode) serves every importer.
 */
const TO_ESM = 'var __toESM=(mod,isNodeMode,target)=>(';
const TO_ESM_ONCE = 'var __toESMOnce=[new WeakMap,new WeakMap];var __toESM=(mod,isNodeMode,target)=>mod!==null&&typeof mod==="object"&&!target?__toESMOnce[isNodeMode?1:0].get(mod)??(__toESMOnce[isNodeMode?1:0].set(mod,target=__toESMFresh(mod,isNodeMode)),target):__toESMFresh(mod,isNodeMode,target);var __toESMFresh=(mod,isNodeMode,target)=>(';
function oneWrapperPerModule(file, text) {
  if (text.split(TO_ESM).length !== 2) {
    console.error(`${file}: esbuild's __toESM is not written as this script expects (${TO_ESM}): check oneWrapperPerModule`);
    process.exit(1);
  }
  return text.replace(TO_ESM, TO_ESM_ONCE);
}

/**
 * Every character outside ASCII (in the bundle's string and regular expression literals: the Chinese question
 * words, for one) written as its \u escape, which reads the same there: with one such character the whole bundle
 * was a string of two bytes a character, 2.6 MB where 1.3 MB do, decoded at every start.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A whole bundle's files checked for import() and made ASCII with one wrapper per module: one read and write each. */
function finishWhole(result) {
  for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.cjs'))) {
    const full = path.join(root, file);
    const text = fs.readFileSync(full, 'utf8');
    refuseImports(file, text);
    fs.writeFileSync(full, oneWrapperPerModule(file, asciiOnly(text)));
  }
}
finishWhole(cold);

// A fired git hook's run (cli/hook-entry.ts), whole in one CommonJS file as the search above and for the same
// reason: through the main bundle a one-file commit's run loaded ~60 files and compiled each anew, about a third of
// its CPU before the commit was searchable (issue 31).
finishWhole(await wholeBundle('hook-run', path.join(dist, 'workspace', 'hook.js')));

// The installed command: the quick entry beside it, the full program (main.js) for anything else.
await build({
  entryPoints: { ocrag: path.join(out, 'bin.js') },
  ...COMMONJS,
  plugins: [
    {
      name: 'command-alone',
      setup(b) {
        b.onResolve({ filter: /^\.\/quick-search\.js$/ }, () => ({ path: './quick-search.cjs', external: true }));
        b.onResolve({ filter: /^\.\/main\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});
// Its first line becomes the sh launcher's lines (scripts/launcher-head.sh): the file is both the command npm links
// and the program node runs.
const command = path.join(out, 'ocrag.cjs');
const bundled = fs.readFileSync(command, 'utf8');
if (!bundled.startsWith('#!/usr/bin/env node\n')) {
  console.error('dist/cli/ocrag.cjs does not start with the #!/usr/bin/env node of cli/bin.ts: check the launcher step of scripts/bundle-cli.mjs');
  process.exit(1);
}
fs.writeFileSync(command, fs.readFileSync(path.join(root, 'scripts', 'launcher-head.sh'), 'utf8') + bundled.slice(bundled.indexOf('\n') + 1));
fs.chmodSync(command, 0o755);

await build({
  entryPoints: {
    main: path.join(out, 'main.js'),
    'search-cold': path.join(out, 'search-cold.js'),
    'static-worker': path.join(dist, 'embed', 'runtime', 'static-worker.js'),
    'teacher-worker': path.join(dist, 'embed', 'recipe', 'teacher-worker.js'),
    'aside-thread': path.join(dist, 'index', 'verify', 'aside-thread.js'),
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
  define,
  plugins: [
    oneApacheArrow(),
    externalPackages(),
  ],
});

/**
 * dist/store/arrow.js takes apache-arrow through require(), the copy LanceDB's JavaScript requires: in a bundle both
 * must be the one CommonJS module, or LanceDB's instanceof checks fail.
 */
function oneApacheArrow() {
  return {
    name: 'one-apache-arrow',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/]store[\\/]arrow\.js$/ }, () => ({
        contents: "import arrow from 'apache-arrow'; export default arrow;",
        loader: 'js',
        resolveDir: root,
      }));
      b.onResolve({ filter: /^apache-arrow$/ }, () => ({ path: path.join(root, 'node_modules', 'apache-arrow', 'Arrow.node.js') }));
    },
  };
}

/** Packages outside BUNDLED_PACKAGES stay imports from node_modules. */
function externalPackages() {
  return {
    name: 'external-packages',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !BUNDLED_PACKAGES.has(packageOf(args.path))) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}
