// The store module's one way in: a location names its backend (a local folder → LanceDB); one it has no backend
// for is refused with a OcragError before anything is created.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { storeLocation } from '../../src/store/layout.js';
import { hasTables, openStore, storeExists } from '../../src/store/open-store.js';
import { StoreDamageError, OcragError } from '../../src/util/errors.js';
import { tempDir } from '../helpers.js';

test('a local folder is a LanceDB store: absent until opened, then holding its tables', async () => {
  const location = storeLocation(tempDir('open-store'));
  assert.equal(storeExists(location), false);
  assert.equal(await hasTables(location), false);
  await assert.rejects(openStore(location, 4, { create: false }), StoreDamageError, 'a reader never creates a store');
  const store = await openStore(location, 4);
  try {
    assert.equal(store.dim, 4);
    assert.equal(await store.countChunks(), 0);
  } finally {
    store.close();
  }
  assert.equal(storeExists(location), true);
  assert.equal(await hasTables(location), true);
  for (const table of ['chunk_refs', 'contents', 'blob_marks']) assert.ok(fs.existsSync(path.join(location.tables, `${table}.lance`)));
});

test('a location of a scheme no backend serves is refused with a OcragError naming it', async () => {
  const dir = tempDir('open-store');
  const location = { ...storeLocation(dir), tables: 'gopher://host/index' };
  const refused = (e: unknown) => e instanceof OcragError && /no store backend for "gopher:\/\/" locations \(gopher:\/\/host\/index\); known: file/.test(e.message);
  assert.throws(() => storeExists(location), refused);
  await assert.rejects(openStore(location, 4), refused);
  await assert.rejects(hasTables(location), refused);
  assert.deepEqual(fs.readdirSync(dir), [], 'nothing was created');
});
