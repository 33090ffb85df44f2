// The import direction of src/ (docs/architecture.md): every import of every src/**/*.ts file is read with the
// TypeScript parser and checked against the layer table below. A failure lists each offending import.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { cyclesOf, shortestCycle } from './support/graph-cycles.js';

interface Layer {
  name: string;
  /** Top-level folders under src/; a folder's subfolders (cli/commands, search/rank) are its own business. */
  folders: string[];
  /** False when the folders of this layer may not import each other (independent entry points). */
  peers: boolean;
}

/**
 * Highest first. A file may import its own folder and any folder of a lower layer, never a higher one; folders
 * of one layer may import each other when `peers` is true, as long as no cycle between folders forms.
 */
export const LAYERS: Layer[] = [
  // The `ocrag` program: parses arguments and runs a command, which may start any other surface (mcp, setup, hooks).
  { name: 'cli', folders: ['cli'], peers: false },
  // Entry points of their own: the MCP server, agent setup, what a fired git hook runs, the index panel, the editor plugins' host. They share code only below.
  { name: 'surfaces', folders: ['mcp', 'setup', 'hooks', 'ui', 'plugin'], peers: false },
  // The front door: a workspace opened from a path (one-shot or long-lived), and what lies beyond one index (model, hooks, doctor).
  { name: 'front door', folders: ['workspace'], peers: false },
  // What surfaces show a person or an agent: search result renderers, token budget, agent guidance text.
  { name: 'render', folders: ['render'], peers: false },
  // The long-lived engine a surface keeps open: one index per repository, its live view, tree watcher and reindex job.
  { name: 'session', folders: ['session'], peers: false },
  // The index as surfaces use it: open, index, search, status, doctor.
  { name: 'service', folders: ['service'], peers: false },
  // Building an index, searching it, exporting and importing it.
  { name: 'features', folders: ['index', 'search', 'share'], peers: true },
  // The store contract and its LanceDB adapter, manifests and layout, models, the chunker, git access, text analysis, settings.
  { name: 'foundations', folders: ['store', 'embed', 'chunk', 'git', 'text', 'config'], peers: true },
  // Needs nothing of ocrag: errors, version, lock files, the package folder, the switches tests set (test-seams.ts).
  { name: 'util', folders: ['util'], peers: false },
];

export const MAX_LINES = 300;
/** Files allowed over MAX_LINES: data tables, where a split would only scatter one table over files. */
export const DATA_TABLES = ['src/text/zh-glossary.ts'];

interface Import {
  from: string;
  to: string;
  /** `import type`, or every name imported is a type: erased by tsc, so no module is loaded at run time. */
  typeOnly: boolean;
}

/**
 * Packages only some files may import, and which: the store's backend is LanceDB behind its adapter, and chunk
 * batches are Arrow, which code outside store/ takes from store/arrow.ts (the copy LanceDB reads).
 */
export const CONFINED_PACKAGES: { name: string; within: (file: string) => boolean }[] = [
  { name: '@lancedb/lancedb', within: (f) => f.startsWith('src/store/lance/') },
  { name: 'apache-arrow', within: (f) => f.startsWith('src/store/lance/') || f === 'src/store/arrow.ts' },
];

/** Every relative import, re-export and dynamic import() of one file, resolved to a path under src/. */
export function importsOf(file: string, source: string): Import[] {
  return specifiersOf(file, source).flatMap(({ specifier, typeOnly }) =>
    specifier.startsWith('.') ? [{ from: file, to: path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts')), typeOnly }] : [],
  );
}

/** One line per import of a confined package (any kind, types too) by a file outside the files it is confined to. */
export function checkPackages(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, source] of sources) {
    for (const { specifier } of specifiersOf(file, source)) {
      const confined = CONFINED_PACKAGES.find((p) => specifier === p.name || specifier.startsWith(`${p.name}/`));
      if (confined && !confined.within(file)) problems.push(`${file} imports ${specifier}, which only the store's own files may (see CONFINED_PACKAGES)`);
    }
  }
  return problems;
}

/** The module specifier of every import, re-export, dynamic import() and import type of one file. */
function specifiersOf(file: string, source: string): { specifier: string; typeOnly: boolean }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: { specifier: string; typeOnly: boolean }[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (specifier && ts.isStringLiteralLike(specifier)) out.push({ specifier: specifier.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
      const onlyTypes = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier, onlyTypes);
    } else if (ts.isExportDeclaration(node)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null;
      add(node.moduleSpecifier, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The top-level folder under src/ that a file belongs to. */
function folderOf(file: string): string {
  return file.split('/')[1];
}

/**
 * One line per breach of the layer table, per import cycle between files (type-only imports count: a type that two
 * files need from each other belongs in a third) and per cycle between folders.
 */
export function checkImports(sources: Map<string, string>, layers: Layer[] = LAYERS): string[] {
  const problems: string[] = [];
  const rankOf = new Map<string, number>();
  const layerOf = new Map<string, Layer>();
  layers.forEach((layer, i) => layer.folders.forEach((f) => (rankOf.set(f, i), layerOf.set(f, layer))));
  const imports = [...sources].flatMap(([file, source]) => importsOf(file, source));
  for (const folder of new Set([...sources.keys()].map(folderOf))) {
    if (!layerOf.has(folder)) problems.push(`src/${folder}/ is in no layer: add it to LAYERS in test/architecture.test.ts`);
  }
  const fileEdges = new Map<string, Set<string>>();
  const folderEdges = new Map<string, Set<string>>();
  const example = new Map<string, Import>();
  for (const imp of imports) {
    if (!sources.has(imp.to)) {
      if (!fs.existsSync(imp.to)) problems.push(`${imp.from} → ${imp.to}: no such file`);
      continue;
    }
    const a = folderOf(imp.from);
    const b = folderOf(imp.to);
    (fileEdges.get(imp.from) ?? fileEdges.set(imp.from, new Set()).get(imp.from)!).add(imp.to);
    if (a === b || !layerOf.has(a) || !layerOf.has(b)) continue;
    (folderEdges.get(a) ?? folderEdges.set(a, new Set()).get(a)!).add(b);
    if (!example.has(`${a}→${b}`)) example.set(`${a}→${b}`, imp);
    if (rankOf.get(a)! > rankOf.get(b)!) problems.push(`${imp.from} → ${imp.to}: ${a} may not import ${b} (layer ${layerOf.get(a)!.name} is below ${layerOf.get(b)!.name})`);
    else if (rankOf.get(a) === rankOf.get(b) && !layerOf.get(a)!.peers) problems.push(`${imp.from} → ${imp.to}: ${a} may not import ${b} (folders of layer ${layerOf.get(a)!.name} are independent)`);
  }
  for (const component of cyclesOf(fileEdges)) {
    const cycle = shortestCycle(component, fileEdges);
    const more = component.length > cycle.length - 1 ? ` (one of the cycles among ${component.length} files)` : '';
    problems.push(`import cycle between files: ${cycle.join(' → ')}${more}`);
  }
  for (const component of cyclesOf(folderEdges)) {
    const cycle = shortestCycle(component, folderEdges);
    const hops = cycle.slice(1).map((b, i) => example.get(`${cycle[i]}→${b}`)!).map((imp) => `${imp.from} → ${imp.to}`);
    const more = component.length > cycle.length - 1 ? ` (one of the cycles among folders ${component.join(', ')})` : '';
    problems.push(`import cycle between folders ${cycle.join(' → ')}: ${hops.join('; ')}${more}`);
  }
  return problems;
}

/** The surfaces, and what each may import besides its own folder: the front door, rendering and util (the CLI starts the other surfaces). */
export const SURFACES: Record<string, string[]> = {
  cli: ['workspace', 'render', 'util', 'mcp', 'setup', 'hooks', 'ui', 'plugin'],
  mcp: ['workspace', 'render', 'util'],
  setup: ['workspace', 'render', 'util'],
  hooks: ['workspace', 'render', 'util'],
  ui: ['workspace', 'render', 'util'],
  plugin: ['workspace', 'render', 'util'],
};

/** One line per import (types too) by a surface of anything behind the front door. */
export function checkSurfaces(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, source] of sources) {
    const allowed = SURFACES[folderOf(file)];
    if (!allowed) continue;
    for (const imp of importsOf(file, source)) {
      const to = folderOf(imp.to);
      if (to !== folderOf(file) && !allowed.includes(to)) problems.push(`${imp.from} → ${imp.to}: a surface goes through the front door (src/workspace/), not to ${to}/`);
    }
  }
  return problems;
}

/**
 * A failure is told apart by its kind and remedy (`OcragError`, util/errors.ts); the exit code it becomes is the
 * CLI's alone. The word, read outside src/cli/, is a surface deciding by the CLI's numbers (or a child process's
 * state read where a 'close' event says it: git/blobs.ts).
 */
export function checkExitCodes(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of sources) {
    if (file.startsWith('src/cli/')) continue;
    text.split('\n').forEach((line, i) => {
      if (/\bexitCode\b/.test(line)) problems.push(`${file}:${i + 1} reads exitCode: tell failures apart by their kind and remedy (util/errors.ts); exit codes are the CLI's (src/cli/)`);
    });
  }
  return problems;
}

/**
 * What a user can set in the environment is read in src/config/ (environment.ts), one reader per setting, so
 * every setting is found there; a switch only tests set is a seam (util/test-seams.ts), never a variable. Read
 * from the syntax tree: `process.env` inside a string (the OpenCode plugin's template) is text, not a read.
 */
export function checkEnvReads(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, source] of sources) {
    if (file.startsWith('src/config/')) continue;
    const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (readsEnv(node)) {
        const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
        problems.push(`${file}:${line} reads process.env: read a setting in src/config/environment.ts, a test's switch with testSeams() (util/test-seams.ts)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return problems;
}

/** `process.env`, `process['env']`, or `env` imported from node:process. */
function readsEnv(node: ts.Node): boolean {
  if (ts.isImportSpecifier(node)) {
    const from = node.parent.parent.parent.moduleSpecifier;
    return (node.propertyName ?? node.name).text === 'env' && ts.isStringLiteral(from) && /^(node:)?process$/.test(from.text);
  }
  if (!ts.isPropertyAccessExpression(node) && !ts.isElementAccessExpression(node)) return false;
  const key = ts.isPropertyAccessExpression(node) ? node.name.text : ts.isStringLiteralLike(node.argumentExpression) ? node.argumentExpression.text : null;
  return key === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process';
}

/** The columns whose names say nothing else (`id`, `text` are words too): spelled anywhere but chunk-columns.ts, a second definition. */
const COLUMN_NAMES = ['start_line', 'end_line', 'content_key'];
const COLUMNS_FILE = 'src/store/chunk-columns.ts';

export function checkColumnNames(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of sources) {
    if (file === COLUMNS_FILE) continue;
    text.split('\n').forEach((line, i) => {
      for (const name of COLUMN_NAMES) if (line.includes(`'${name}'`) || line.includes(`"${name}"`)) problems.push(`${file}:${i + 1} spells the column '${name}': use COLUMN from ${COLUMNS_FILE}`);
    });
  }
  return problems;
}

/**
 * Chunk batches cross the store contract as Arrow, but above the store they are read through the typed accessors
 * of src/store/chunk-batch.ts: outside src/store/, no column is taken from a batch by name, and Arrow itself (store/arrow.ts) is not imported.
 */
export function checkBatchReads(sources: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of sources) {
    if (file.startsWith('src/store/')) continue;
    text.split('\n').forEach((line, i) => {
      if (/\.getChild\(/.test(line)) problems.push(`${file}:${i + 1} reads a batch's column by name: use readFields (src/store/chunk-batch.ts)`);
    });
    for (const imp of importsOf(file, text)) if (imp.to === 'src/store/arrow.ts') problems.push(`${file} imports src/store/arrow.ts: batches are read and written in src/store/ (chunk-batch.ts, chunk-bytes.ts)`);
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.posix.join(path.relative('.', e.parentPath ?? e.path).split(path.sep).join('/'), e.name))
    .sort();
}

describe('architecture', () => {
  const sources = new Map(sourceFiles('src').map((f) => [f, fs.readFileSync(f, 'utf8')]));

  test('every import of src/ goes down the layers, with no cycle between files or folders', () => {
    assert.ok(sources.size > 100, `found only ${sources.size} files under src/: run the tests from the repository root`);
    const problems = checkImports(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
  });

  test('LanceDB is imported only by the store\'s adapter (src/store/lance/), Arrow only there and by src/store/arrow.ts', () => {
    const problems = checkPackages(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    assert.deepEqual(
      checkPackages(new Map([['src/share/x.ts', "import type { RecordBatch } from 'apache-arrow';\nconst l = () => import('@lancedb/lancedb');\n"], ['src/store/lance/y.ts', "import * as lancedb from '@lancedb/lancedb';\n"]])),
      [
        "src/share/x.ts imports apache-arrow, which only the store's own files may (see CONFINED_PACKAGES)",
        "src/share/x.ts imports @lancedb/lancedb, which only the store's own files may (see CONFINED_PACKAGES)",
      ],
    );
  });

  test('surfaces import only the front door (src/workspace/), src/render/ and src/util/', () => {
    const problems = checkSurfaces(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    assert.deepEqual(
      checkSurfaces(new Map([['src/mcp/tools/x.ts', "import type { IndexContext } from '../../index/context.js';\nimport { a } from '../../workspace/live.js';\nimport { b } from './y.js';\n"], ['src/cli/c.ts', "import { serve } from '../ui/serve.js';\nimport { GitError } from '../git/run.js';\n"]])),
      [
        'src/mcp/tools/x.ts → src/index/context.ts: a surface goes through the front door (src/workspace/), not to index/',
        'src/cli/c.ts → src/git/run.ts: a surface goes through the front door (src/workspace/), not to git/',
      ],
    );
  });

  test('only the CLI turns a failure into an exit code: no exitCode is read anywhere else', () => {
    const problems = checkExitCodes(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    assert.deepEqual(checkExitCodes(new Map([['src/mcp/e.ts', 'if (e.exitCode === 3) hint();\n'], ['src/cli/main.ts', 'return process.exitCode;\n']])), [
      'src/mcp/e.ts:1 reads exitCode: tell failures apart by their kind and remedy (util/errors.ts); exit codes are the CLI\'s (src/cli/)',
    ]);
  });

  test('the environment is read only in src/config/: settings there, test switches as seams', () => {
    const problems = checkEnvReads(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    const planted = new Map([
      ['src/chunk/x.ts', "const seam = process.env.OCRAG_TEST_RULELESS;\nconst env = { ...process['env'] };\nconst text = `env: { ...process.env }`;\nimport { env as e } from 'node:process';\n"],
      ['src/config/environment.ts', 'export const debug = () => !!process.env.OCRAG_DEBUG;\n'],
    ]);
    assert.deepEqual(checkEnvReads(planted), [
      'src/chunk/x.ts:1 reads process.env: read a setting in src/config/environment.ts, a test\'s switch with testSeams() (util/test-seams.ts)',
      'src/chunk/x.ts:2 reads process.env: read a setting in src/config/environment.ts, a test\'s switch with testSeams() (util/test-seams.ts)',
      'src/chunk/x.ts:4 reads process.env: read a setting in src/config/environment.ts, a test\'s switch with testSeams() (util/test-seams.ts)',
    ]);
  });

  test('the stored columns are named in one file (src/store/chunk-columns.ts)', () => {
    const problems = checkColumnNames(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    assert.deepEqual(checkColumnNames(new Map([['src/search/x.ts', "batch.getChild('start_line');\n"]])), ["src/search/x.ts:1 spells the column 'start_line': use COLUMN from src/store/chunk-columns.ts"]);
  });

  test('above the store, chunk batches are read through typed accessors, never by column name or with Arrow', () => {
    const problems = checkBatchReads(sources);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n`);
    assert.deepEqual(checkBatchReads(new Map([['src/search/x.ts', "import arrow from '../store/arrow.js';\nconst ids = batch.getChild('id');\n"], ['src/store/y.ts', "batch.getChild('id');\n"]])), [
      "src/search/x.ts:2 reads a batch's column by name: use readFields (src/store/chunk-batch.ts)",
      'src/search/x.ts imports src/store/arrow.ts: batches are read and written in src/store/ (chunk-batch.ts, chunk-bytes.ts)',
    ]);
  });

  test(`no file of src/ is over ${MAX_LINES} lines, except the data tables listed by name`, () => {
    const long = [...sources].filter(([f, text]) => !DATA_TABLES.includes(f) && text.split('\n').length - 1 > MAX_LINES).map(([f, text]) => `${f}: ${text.split('\n').length - 1} lines`);
    assert.deepEqual(long, [], `\nsplit these files (or, for a data table, list it in DATA_TABLES):\n${long.join('\n')}\n`);
    for (const table of DATA_TABLES) assert.ok(sources.has(table), `DATA_TABLES names ${table}, which is gone`);
  });

  test('the check sees upward imports, type-only imports, re-exports, dynamic imports and cycles', () => {
    const files = new Map([
      ['src/util/a.ts', "import { run } from '../cli/main.js';\n"],
      ['src/cli/main.ts', "export const run = 1;\nexport { x } from '../store/s.js';\n"],
      ['src/store/s.ts', "import type { T } from '../index/t.js';\nexport const x = 1;\nconst later = () => import('./u.js');\n"],
      ['src/store/u.ts', "import { x } from './s.js';\nimport { y } from '../git/g.js';\n"],
      ['src/git/g.ts', "import '../store/u.js';\nexport const y = 1;\n"],
      ['src/index/t.ts', "import type { V } from './v.js';\nexport type T = number;\n"],
      ['src/index/v.ts', "import type { T } from './t.js';\nexport type V = T;\n"],
      ['src/mcp/m.ts', "import { z } from '../setup/z.js';\n"],
      ['src/setup/z.ts', 'export const z = 1;\n'],
    ]);
    assert.deepEqual(checkImports(files), [
      'src/util/a.ts → src/cli/main.ts: util may not import cli (layer util is below cli)',
      'src/store/s.ts → src/index/t.ts: store may not import index (layer foundations is below features)',
      'src/mcp/m.ts → src/setup/z.ts: mcp may not import setup (folders of layer surfaces are independent)',
      'import cycle between files: src/index/t.ts → src/index/v.ts → src/index/t.ts',
      'import cycle between files: src/git/g.ts → src/store/u.ts → src/git/g.ts (one of the cycles among 3 files)',
      'import cycle between folders git → store → git: src/git/g.ts → src/store/u.ts; src/store/u.ts → src/git/g.ts',
    ]);
  });
});
