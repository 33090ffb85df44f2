// Importing into an index that holds the artifact's rows already: a stored row is never written again, and is held
// to the row the index holds under its id by its content key (breadcrumb and text) and its search words, so a rewrite
// of any of the three still refuses the artifact, and importing the same artifact again adds nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { contentKey } from '../../src/store/content-key.js';
import { readFields } from '../../src/store/chunk-batch.js';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { ChunkWriter } from '../../src/share/chunk-writer.js';
import { importArtifact, type ImportSummary } from '../../src/share/import.js';
import { cloneRepo, git, runCli, runJson, TEST_CACHE } from '../helpers.js';
import { editArtifact, exportedArtifact, indexState, INJECTED, rowOf, verifyRepo, type ArtifactRow } from '../security/verify-helpers.js';

// The in-process import below loads the model from the test cache, as the CLI runs do.
process.env.OCRAG_CACHE ??= TEST_CACHE;

/** Every file of the store's tables (versions, data, deletions), by path. */
function tableFiles(repo: string): string[] {
  return (fs.readdirSync(path.join(repo, '.ocrag', 'lance'), { recursive: true }) as string[]).sort();
}

describe('import into an index holding its rows already', () => {
  let victim: string;
  let work: string;
  let good: string;
  let cache: string;
  let state: Awaited<ReturnType<typeof indexState>>;

  before(async () => {
    const origin = verifyRepo();
    ({ work, good } = await exportedArtifact(origin, 'import-stored'));
    cache = git(origin, 'rev-parse', 'HEAD:src/cache.ts');
    victim = cloneRepo(origin, 'victim');
    await runJson(['index'], victim);
    state = await indexState(victim);
  });

  async function refusedStored(name: string, edit: (row: ArtifactRow) => void): Promise<void> {
    const file = await editArtifact(good, path.join(work, `${name}.tar`), { rows: (rows) => (edit(rowOf(rows, cache, 'this.map.get')), rows) });
    const r = await runCli(['import', file], victim);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact refused: src\/cache\.ts:\d+-\d+ \(blob [0-9a-f]{12}\) says otherwise than the row this index holds under its id \(its breadcrumb, text or search words\); nothing was imported\n$/);
    assert.deepEqual(await indexState(victim), state, 'the index is as it was');
  }

  test('the same artifact again: accepted, nothing added, the index as it was', async () => {
    const before = tableFiles(victim);
    const again = await runJson<ImportSummary>(['import', good], victim);
    assert.deepEqual([again.chunksAdded, again.marksAdded], [0, 0]);
    assert.deepEqual((await indexState(victim)).chunks, state.chunks);
    assert.deepEqual(tableFiles(victim), before, 'no table written: not a version, not a data file');
  });

  test('the same artifact again, in process: no batch reaches the writer, from memory or from a second read', async () => {
    const push = ChunkWriter.prototype.push;
    let pushed = 0;
    ChunkWriter.prototype.push = function (...args) {
      pushed++;
      return push.apply(this, args);
    };
    const index = await CodeIndex.open(victim);
    try {
      for (const keepChunkBytes of [undefined, 0]) {
        const again = await importArtifact(index, good, { keepChunkBytes });
        assert.equal(again.chunksAdded, 0);
      }
    } finally {
      ChunkWriter.prototype.push = push;
      await index.close();
    }
    assert.equal(pushed, 0, 'every batch was stored already');
  });

  test('a stored row with only its search words rewritten', async () => {
    await refusedStored('terms', (r) => (r.terms = `${r.terms} password password`));
  });

  test('a stored row with only its breadcrumb rewritten', async () => {
    await refusedStored('symbol', (r) => (r.symbol = `${r.symbol} (${INJECTED})`));
  });

  test('a stored row with only its text rewritten', async () => {
    await refusedStored('text', (r) => (r.text = r.text.replace('return this.map.get(key);', `return this.map.get(key); // ${INJECTED}`)));
  });

  test("the store reads each chunk's content key without its content, and it is the key of its breadcrumb and text", async () => {
    const dir = path.join(victim, '.ocrag');
    const store = await openStore(storeLocation(dir), (JSON.parse(fs.readFileSync(path.join(dir, 'store.json'), 'utf8')) as { dim: number }).dim);
    try {
      const keys = new Map<string, string>();
      for await (const batch of store.chunkColumns(null, ['id', 'contentKey'])) {
        const { id, contentKey: key } = readFields(batch, ['id', 'contentKey']);
        for (let i = 0; i < batch.numRows; i++) keys.set(id(i), key(i));
      }
      let rows = 0;
      for await (const batch of store.chunkColumns(null, ['id', 'symbol', 'text'])) {
        const { id, symbol, text } = readFields(batch, ['id', 'symbol', 'text']);
        for (let i = 0; i < batch.numRows; i++, rows++) assert.equal(keys.get(id(i)), contentKey(symbol(i), text(i)));
      }
      assert.equal(rows, state.chunks);
      assert.equal(keys.size, state.chunks);
    } finally {
      store.close();
    }
  });
});
