// The vector index a large view gets (search-indexes.ts): built once the view passes the large-view budget and the
// store holds MIN_VECTOR_INDEX_ROWS contents, of the kind chosen there (IVF_RQ), and searched by queryIndexes.
// Random unit vectors stand in for embeddings (a made-up embedder): what is judged is the index, not the model.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as lancedb from '@lancedb/lancedb';
import { storeLocation } from '../../src/store/layout.js';
import { tempDir } from '../helpers.js';

const DIM = 32;
const CONTENTS = 10_000;

/** A unit vector from mulberry32 seeded by `seed`: the same seed, the same vector. */
function unitVector(seed: number): Float32Array {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32 - 0.5;
  };
  const v = Float32Array.from({ length: DIM }, next);
  const norm = Math.hypot(...v);
  return v.map((c) => c / norm);
}

test('a large view gets an IVF_RQ vector index, and its nearest content is the one queried', async () => {
  process.env.OCRAG_LARGE_STORE_CHUNKS = '1';
  const { openStore } = await import('../../src/store/open-store.js');
  const location = storeLocation(tempDir('vector-index'));
  const store = await openStore(location, DIM);
  const blob = (i: number) => i.toString(16).padStart(40, '0');
  // Chunk ids are hex digests (a store refuses any other as damage): one a blob's id could not be.
  const id = (i: number) => `e${i.toString(16).padStart(39, '0')}`;
  try {
    for (let start = 0; start < CONTENTS; start += 2_500) {
      const rows = Array.from({ length: 2_500 }, (_, j) => {
        const i = start + j;
        return { id: id(i), blob: blob(i), startLine: 1, endLine: 1, language: 'text', symbol: '', text: `content ${i}`, terms: `content n${i}`, vector: unitVector(i + 1) };
      });
      await store.addChunks(rows, false);
    }
    await store.ensureSearchIndexes([blob(0)]);
    const hits = await store.queryIndexes(unitVector(4_242), 'content', 10);
    assert.equal(hits.nearest[0], id(4_241), 'the stored vector itself is nearest');
    // Told which chunks need their content, the store reads only theirs: the same hits in the same order, the others
    // without their content columns.
    const asked = new Set<string>();
    const some = await store.queryIndexes(unitVector(4_242), 'content', 10, (chunk) => (asked.add(chunk), chunk === id(4_241)));
    const rowsOf = (h: typeof hits) => h.rows.flatMap((b) => Array.from({ length: b.numRows }, (_, r) => ({ id: b.getChild('id')!.get(r) as string, text: (b.getChild('text')?.get(r) as string | undefined) ?? null, key: b.getChild('_distance') ? 'near' : 'text' })));
    const [whole, part] = [rowsOf(hits), rowsOf(some)];
    assert.deepEqual(part.map((r) => [r.id, r.key]), whole.map((r) => [r.id, r.key]));
    part.forEach((r, i) => assert.equal(r.text, r.id === id(4_241) ? whole[i].text : null, r.id));
    assert.deepEqual(some.nearest, hits.nearest);
    assert.deepEqual([...some.textScores], [...hits.textScores]);
    assert.deepEqual([...asked].sort(), [...new Set(whole.map((r) => r.id))].sort(), 'asked once for each chunk');
  } finally {
    store.close();
    delete process.env.OCRAG_LARGE_STORE_CHUNKS;
  }
  const db = await lancedb.connect(location.tables);
  const indices = await (await db.openTable('contents')).listIndices();
  const vector = indices.find((i) => i.columns.includes('vector'));
  assert.equal(vector?.indexType, 'IvfRq', JSON.stringify(indices));
  assert.ok(indices.some((i) => i.columns.includes('terms')), 'and a full-text index');
  db.close();
});
