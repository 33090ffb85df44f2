// The references a search through a large store's indexes joins to its hits (store/lance/refs-by-key.ts): read
// whole once asked twice, they must list each content's references exactly as a look-up by key does, and a write
// through the handle must be seen at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as lancedb from '@lancedb/lancedb';
import type { RowRef } from '../../src/store/lance/arrow-take.js';
import { contentKey } from '../../src/store/content-key.js';
import { RefsByKey } from '../../src/store/lance/refs-by-key.js';
import { openStore } from '../../src/store/open-store.js';
import { storeLocation } from '../../src/store/layout.js';
import { tempDir } from '../helpers.js';

const DIM = 8;
const hex = (prefix: string, i: number) => `${prefix}${i.toString(16).padStart(39, '0')}`;
const vector = (i: number) => Float32Array.from({ length: DIM }, (_, d) => (d === i % DIM ? 1 : 0));

/** Each key's references as chunk ids, in their order. */
function ids(refs: Map<string, RowRef[]>): Record<string, string[]> {
  return Object.fromEntries([...refs].map(([key, list]) => [key, list.map((r) => r.batch.getChild('id')!.get(r.row) as string)]));
}

test('references held in memory list what a look-up lists, and follow a write', async () => {
  const location = storeLocation(tempDir('refs-by-key'));
  const store = await openStore(location, DIM);
  // Contents shared by several blobs (a copied file): one key, references added in two writes.
  const chunk = (i: number, blob: number) => ({ id: hex('e', i), blob: hex('b', blob), startLine: 1 + i, endLine: 2 + i, language: 'text', symbol: '', text: `content ${i % 7}`, terms: `content n${i % 7}`, vector: vector(i % 7) });
  await store.addChunks(Array.from({ length: 30 }, (_, i) => chunk(i, i % 4)), false);
  await store.addChunks(Array.from({ length: 10 }, (_, i) => chunk(30 + i, 9)), true);
  store.close();
  const db = await lancedb.connect(location.tables);
  const table = await db.openTable('chunk_refs');
  try {
    const refs = new RefsByKey(table, location.tables);
    const keys = [...Array.from({ length: 5 }, (_, i) => contentKey('', `content ${i}`)), hex('f', 1), 'not a key'];
    const looked = ids(await refs.of(keys, 10));
    // A search widening its window is one search: nothing is read whole yet.
    assert.deepEqual(ids(await refs.of(keys, 40)), looked);
    await refs.whenRead();
    assert.equal((refs as unknown as { held: unknown }).held, null, 'one search reads nothing whole');
    assert.equal(looked[keys[0]].length, 6, 'a content of several blobs has every reference');
    assert.deepEqual(ids(await refs.of(keys, 10)), looked, 'the second search still looks up, and starts the read');
    await refs.whenRead();
    assert.deepEqual(ids(await refs.of(keys, 10)), looked, 'from memory, each content\'s references in the same order');
    const more = await table.query().where(`content_key = '${keys[1]}'`).limit(1).toArray();
    await table.add(more.map((r) => ({ ...r, id: hex('d', 1), blob: hex('b', 12) })));
    const after = ids(await refs.of(keys, 10));
    assert.deepEqual(after[keys[1]], [...looked[keys[1]], hex('d', 1)], 'a write through the handle is seen at once');
    await refs.whenRead();
    assert.deepEqual(ids(await refs.of(keys, 10)), after, 'and read again whole');
  } finally {
    table.close();
    db.close();
  }
});
