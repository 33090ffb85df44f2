// Languages given syntax rules later: a store made before re-chunks their files once and nothing else moves; a
// grammar that cannot load means line windows and one warning per index run, never a failed index.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { cursorlessGrammar, grammarKey } from '../../src/chunk/grammar-files.js';
import { readFields } from '../../src/store/chunk-batch.js';
import { openStore } from '../../src/store/open-store.js';
import { storeLocation } from '../../src/store/layout.js';
import { readMeta } from '../../src/store/meta.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { git, PROJECT_ROOT, runCli, tempDir, TEST_CACHE } from '../helpers.js';
import { seamEnv, setSeams } from '../support/seams.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;
const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'languages');

/** A repository of the Kotlin, Swift and Elixir fixtures beside a Python and a TypeScript file. */
function mixedRepo(): string {
  const repo = path.join(tempDir('grammars'), 'mixed');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  for (const name of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, name), path.join(repo, 'src', name));
  fs.writeFileSync(path.join(repo, 'src/backup.py'), 'def backup_database(path):\n    """Copies the database file to a dated backup."""\n    return path + ".bak"\n');
  fs.writeFileSync(path.join(repo, 'src/route.ts'), 'export function route(path: string): string {\n  return path.split("/").join(" > ");\n}\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'mixed languages');
  return repo;
}

/** Chunk id → [language, breadcrumb], as stored. */
async function storedChunks(repo: string): Promise<Map<string, [string, string]>> {
  const dir = path.join(repo, '.ocrag');
  const store = await openStore(storeLocation(dir), readMeta(path.join(dir, 'store.json'))!.dim, { create: false });
  const out = new Map<string, [string, string]>();
  try {
    for await (const batch of store.chunkColumns(null, ['id', 'language', 'symbol'])) {
      const { id, language, symbol } = readFields(batch, ['id', 'language', 'symbol']);
      for (let i = 0; i < batch.numRows; i++) out.set(id(i), [language(i), symbol(i)]);
    }
  } finally {
    store.close();
  }
  return out;
}

const idsOf = (chunks: Map<string, [string, string]>, languages: string[]) => [...chunks].filter(([, [l]]) => languages.includes(l)).map(([id]) => id).sort();

describe('languages given rules later', () => {
  const seams = setSeams({});
  after(() => setSeams(seams ?? {}));

  test('a store made before their rules re-chunks their files on the next run, and only theirs', async () => {
    const repo = mixedRepo();
    setSeams({ ruleless: ['kotlin', 'swift', 'elixir'] });
    const notices: string[] = [];
    const open = () => CodeIndex.open(repo, {}, { onNotice: (m) => notices.push(m) });
    let index = await open();
    assert.equal((await index.index()).newBlobs, 5);
    await index.close();
    const before = await storedChunks(repo);
    assert.ok([...before.values()].filter(([l]) => l === 'kotlin').every(([, symbol]) => symbol === ''), 'Kotlin was line windows');

    setSeams({});
    index = await open();
    const summary = await index.index();
    await index.close();
    assert.equal(summary.newBlobs, 3, 'the Kotlin, Swift and Elixir files, not the Python and TypeScript ones');
    assert.match(notices.join('\n'), /the chunker changed for elixir, kotlin, swift /);
    const now = await storedChunks(repo);
    assert.deepEqual(idsOf(now, ['python', 'typescript']), idsOf(before, ['python', 'typescript']), 'their chunks kept, ids and all');
    assert.deepEqual(idsOf(now, ['kotlin', 'swift', 'elixir']).filter((id) => before.has(id)), [], 'the windows are gone');
    const symbols = new Set([...now.values()].map(([, symbol]) => symbol));
    for (const symbol of ['class RateLimiter > method tryAcquire', 'class ImageCache > method store', 'defmodule Acme.SessionRegistry > def register']) {
      assert.ok(symbols.has(symbol), symbol);
    }
    index = await open();
    assert.deepEqual([(await index.index()).upToDate], [true]);
    await index.close();
  });

  test('a missing or corrupt grammar: line windows for its language, one warning per run, exit 0', async () => {
    const repo = mixedRepo();
    const corrupt = path.join(tempDir('corrupt'), 'tree-sitter-kotlin.wasm');
    fs.writeFileSync(corrupt, 'not a wasm module');
    const cases = [
      { file: corrupt, language: 'kotlin', grammar: cursorlessGrammar('kotlin') },
      { file: path.join(tempDir('missing'), 'tree-sitter-swift.wasm'), language: 'swift', grammar: cursorlessGrammar('swift') },
    ];
    const env = seamEnv({ grammarFiles: Object.fromEntries(cases.map((c) => [grammarKey(c.grammar), c.file])) });
    const run = await runCli(['index', '--json'], repo, env);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { files: number; warnings: string[] };
    assert.equal(summary.files, 5);
    assert.equal(summary.warnings.length, 2, summary.warnings.join('\n'));
    for (const [i, c] of cases.entries()) assert.match(summary.warnings[i]!, new RegExp(`^the ${c.language} grammar could not be loaded \\(.+\\): its files were cut into line windows; reinstall ocrag, then run \`ocrag index --rebuild\`$`));
    assert.equal(run.stderr.split('\n').filter((l) => l.startsWith('ocrag: warning: the ')).length, 2, run.stderr);
    const chunks = [...(await storedChunks(repo)).values()];
    assert.ok(chunks.some(([l]) => l === 'kotlin') && chunks.filter(([l]) => l === 'kotlin' || l === 'swift').every(([, s]) => s === ''), 'windows, no symbols');
    assert.ok(chunks.some(([l, s]) => l === 'elixir' && s.startsWith('defmodule')), 'the other languages still by syntax');
    const found = await runCli(['search', 'rate limiter token refill', '--json'], repo, env);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /RateLimiter\.kt/, 'its files are searchable all the same');
  });
});
