import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import arrow from '../../src/store/arrow.js';
import type { ChunkBatch, ChunkStore } from '../../src/store/contract.js';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from '../helpers.js';

const DIM = 4;

/** Rows `from`…`from + n - 1` as an import hands them to the store: one plain batch of every stored column. */
function rows(from: number, n: number): ChunkBatch {
  const { Field, FixedSizeList, Float32, makeData, RecordBatch: Batch, Schema, Struct, vectorFromArray, Int32, Utf8 } = arrow;
  const strings = (f: (i: number) => string) => vectorFromArray(Array.from({ length: n }, (_, i) => f(i)), new Utf8()).data[0];
  const ints = (f: (i: number) => number) => makeData({ type: new Int32(), length: n, nullCount: 0, data: Int32Array.from({ length: n }, (_, i) => f(i)) });
  const type = new FixedSizeList(DIM, new Field('item', new Float32(), true));
  // Unit vectors, as every embedder writes (a store refuses others as damage when it reads them back).
  const vectors = makeData({ type: new Float32(), length: n * DIM, nullCount: 0, data: Float32Array.from({ length: n * DIM }, (_, k) => (k % DIM === (from + Math.floor(k / DIM)) % DIM ? 1 : 0)) });
  const columns = {
    id: strings((i) => `${from + i}`.padStart(40, 'a')),
    blob: strings(() => 'b'.repeat(40)),
    start_line: ints((i) => i + 1),
    end_line: ints((i) => i + 2),
    language: strings(() => 'typescript'),
    symbol: strings((i) => `function f${i}`),
    text: strings((i) => `export function f${i}() {}`),
    terms: strings((i) => `f${i} export function`),
    vector: makeData({ type, length: n, nullCount: 0, child: vectors }),
  };
  const fields = Object.entries(columns).map(([name, data]) => new Field(name, data.type, false));
  return new Batch(new Schema(fields), makeData({ type: new Struct(fields), length: n, nullCount: 0, children: Object.values(columns) }));
}

async function storedRows(store: ChunkStore): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of store.chunkColumns(null, ['id', 'startLine', 'symbol', 'text', 'terms', 'vector'])) {
    for (const row of batch.toArray()) out.push({ ...row.toJSON(), vector: [...(row.vector as { toArray(): Float32Array }).toArray()] });
  }
  return out.sort((a, b) => String((a as { id: string }).id).localeCompare((b as { id: string }).id));
}

test('rows added to a store being built read back the same through LanceDB native add and through its public add', async () => {
  const dir = tempDir('append');
  const direct = await openStore(storeLocation(path.join(dir, 'direct')), DIM);
  const fallback = await openStore(storeLocation(path.join(dir, 'fallback')), DIM);
  // As if a LanceDB upgrade had moved the native tables: the store must fall back to the public add().
  const tables = fallback as unknown as Record<'refs' | 'contents', object>;
  for (const name of ['refs', 'contents'] as const) {
    tables[name] = new Proxy(tables[name], {
      get: (target, key) => (key === 'inner' ? undefined : typeof Reflect.get(target, key) === 'function' ? Reflect.get(target, key).bind(target) : Reflect.get(target, key)),
    });
  }
  try {
    for (const store of [direct, fallback]) {
      const ids = new Set<string>();
      assert.equal(await store.addChunkBatchesToNewTable([rows(0, 3), rows(3, 5)], ids), 8);
      // Rows 6 and 7 again: only row 8 is new (the rows that remain are added one by one).
      assert.equal(await store.addChunkBatchesToNewTable([rows(6, 3)], ids), 1);
    }
    const expected = await storedRows(direct);
    assert.equal(expected.length, 9);
    assert.deepEqual(await storedRows(fallback), expected);
  } finally {
    direct.close();
    fallback.close();
  }
});
