// The row-summing kernel must give the JavaScript loop's sums bit for bit: on random rows of every magnitude, and
// through the encoder and the embedder's worker pool on this repository's texts, so no stored vector changes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { onnxFacts, readTable, TableFileRows } from '../../src/embed/models/onnx-sidecar.js';
import { RowArena } from '../../src/embed/runtime/row-arena.js';
import { RowSummer, tableMemory } from '../../src/embed/runtime/row-sum.js';
import { createStaticEmbedder } from '../../src/embed/runtime/static-embedder.js';
import { StaticEncoder } from '../../src/embed/runtime/static-encoder.js';
import { sharedDefaultModel } from './helpers.js';
import { EDGE_CASES, repositoryTexts } from './token-corpus.js';

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${what}: element ${i}: ${a[i]} ≠ ${b[i]}`);
}

describe('row-summing kernel', () => {
  for (const shared of [true, false]) {
    test(`adds rows exactly as the JavaScript loop does (${shared ? 'shared' : 'own'} memory)`, () => {
      const dim = 24;
      const rows = 50;
      const memory = tableMemory(rows * dim * 4, dim, shared);
      assert.ok(memory, 'WebAssembly SIMD runs here');
      let seed = 7;
      const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      // Magnitudes from 1 to 1e-12 and both signs: sums that round, in the order they round.
      for (let i = 0; i < memory.table.length; i++) memory.table[i] = (random() - 0.5) * 10 ** -Math.floor(random() * 12);
      const summer = RowSummer.over(memory)!;
      const expected = new Float64Array(dim);
      for (let step = 0; step < 500; step++) {
        const id = Math.floor(random() * rows);
        const count = 1 + Math.floor(random() * 9);
        for (let d = 0; d < dim; d++) expected[d] += count * memory.table[id * dim + d];
        summer.addRow(id, count);
      }
      sameBits(summer.sum, expected, 'sum');
    });
  }

  test('gives each encoder its own scratch sum, and none once they are all taken', () => {
    const memory = tableMemory(4 * 8 * 4, 8, true)!;
    const summers = Array.from({ length: 16 }, () => RowSummer.over(memory));
    assert.ok(summers.every(Boolean));
    assert.equal(new Set(summers.map((s) => s!.sum.byteOffset)).size, 16);
    assert.equal(RowSummer.over(memory), null);
  });

  test('is not used for a width that is not a multiple of four', () => {
    assert.equal(tableMemory(10 * 6 * 4, 6, true), null);
  });
});

describe('encoders with the kernel', () => {
  let modelDir: string;
  let tablePath: string;
  let texts: string[];
  before(async () => {
    modelDir = await sharedDefaultModel();
    tablePath = onnxFacts(path.join(modelDir, 'onnx', 'model.onnx')).staticLookup!.tablePath;
    texts = [...EDGE_CASES, ...[...repositoryTexts().values()].slice(0, 400)];
  });

  test('give the vectors of the JavaScript sums, on this thread and on the worker pool', async () => {
    const dim = 512;
    const plain = new StaticEncoder({ modelDir, dim, table: await readTable(tablePath, (bytes) => new Float32Array(bytes / 4)) });
    let memory: ReturnType<typeof tableMemory> = null;
    const table = await readTable(tablePath, (bytes) => (memory = tableMemory(bytes, dim, false))!.table);
    const kernel = new StaticEncoder({ modelDir, dim, table, memory: memory!.memory });
    assert.ok((kernel as unknown as { summer: unknown }).summer, 'the encoder sums with the kernel');
    const expected = plain.encodeBatch(texts);
    sameBits(kernel.encodeBatch(texts), expected, 'this thread');
    const embedder = createStaticEmbedder(modelDir, { tablePath, dim }, { modelId: 'test', prompts: { query: '', document: '' }, threads: 2 });
    try {
      const vectors = await embedder.embed(texts);
      sameBits(Float32Array.from(vectors.flatMap((v) => [...v])), expected, 'worker pool');
    } finally {
      await embedder.close();
    }
  });

  test('give the same vectors reading rows one at a time (a query, an import\'s sample) as over the whole table', async () => {
    const dim = 512;
    const plain = new StaticEncoder({ modelDir, dim, table: await readTable(tablePath, (bytes) => new Float32Array(bytes / 4)) });
    const rows = new TableFileRows(tablePath, dim);
    try {
      const byRows = new StaticEncoder({ modelDir, dim, table: rows });
      assert.ok((byRows as unknown as { summer: unknown }).summer, 'the encoder sums its rows with the kernel');
      sameBits(byRows.encodeBatch(texts), plain.encodeBatch(texts), 'rows read one at a time');
    } finally {
      rows.close();
    }
  });

  test('hold their rows up to a bound, then read each further row into one scratch slot', async () => {
    const dim = 512;
    const table = await readTable(tablePath, (bytes) => new Float32Array(bytes / 4));
    let reads = 0;
    const arena = new RowArena({ rowCount: table.length / dim, read: (id, out) => (reads++, out.set(table.subarray(id * dim, (id + 1) * dim))) }, dim, 3);
    const expected = new Float64Array(dim);
    const ids = [5, 9, 5, 17, 30, 9, 30, 5, 1000];
    for (const id of ids) {
      for (let d = 0; d < dim; d++) expected[d] += 2 * table[id * dim + d];
      arena.summer!.addRow(arena.slot(id), 2);
    }
    sameBits(arena.summer!.sum, expected, 'sum');
    // 5, 9, 17 are held; 30 and 1000 are past the bound and read each time.
    assert.equal(reads, 3 + 3);
  });
});
