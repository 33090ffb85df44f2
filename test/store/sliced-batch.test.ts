// Arrow's slices keep each buffer already cut to their rows (`Data.offset` only places the validity bits), so the
// store's byte-level readers index a column by row: a sliced batch is read as its own rows, not the ones further on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecordBatch } from '../../src/store/arrow.js';
import { storedBatchProblem } from '../../src/store/batch-integrity.js';
import { utf8BytesOf } from '../../src/store/chunk-batch.js';
import { contentKey, keysOfBytes } from '../../src/store/content-key.js';
import { takeColumn } from '../../src/store/lance/arrow-take.js';
import { contentsToArrow, refsToArrow } from '../../src/store/lance/chunk-arrow.js';

const DIM = 2;
const hex = (i: number) => i.toString(16).padStart(40, '0');
const symbols = ['fn a', 'fn b', 'fn 解析', 'fn d', 'fn e', 'fn f'];
const texts = ['alpha', 'beta', '解析参数', 'delta', 'epsilon', 'zeta'];
const contents = symbols.map((symbol, i) => ({ key: contentKey(symbol, texts[i]), symbol, text: texts[i], terms: `w${i}`, vector: new Float32Array([Math.cos(i), Math.sin(i)]) }));
const refs = contents.map((c, i) => ({ id: hex(i + 1), blob: hex(100 + i), startLine: i + 1, endLine: i + 3, language: 'rust', key: c.key }));

/** Rows 2..4 of a table of these rows, as the one batch of Arrow's own slice. */
function sliceOf(table: { slice(from: number, to: number): { batches: RecordBatch[] } }): RecordBatch {
  const [batch] = table.slice(2, 5).batches;
  assert.equal(batch.getChild(batch.schema.fields[0].name)!.data[0].offset, 2, 'the slice starts two rows in');
  return batch;
}

test('content keys hashed from a sliced batch\'s bytes are its own rows\' keys', () => {
  const batch = sliceOf(contentsToArrow(contents, DIM));
  const keyOf = keysOfBytes([utf8BytesOf(batch, 'symbol'), utf8BytesOf(batch, 'text')], () => assert.fail('valid UTF-8'));
  for (let row = 0; row < 3; row++) assert.equal(keyOf(row), contents[row + 2].key, `row ${row}`);
});

test('a sliced batch is checked on its own rows: damage before or after it is not its, damage in it is', () => {
  const damaged = (at: number) => contents.map((c, i) => (i === at ? { ...c, vector: new Float32Array([3, 4]) } : c));
  assert.equal(storedBatchProblem(sliceOf(contentsToArrow(damaged(5), DIM))), null, 'row 5 lies after the slice');
  assert.equal(storedBatchProblem(sliceOf(contentsToArrow(damaged(0), DIM))), null, 'row 0 lies before it');
  assert.match(storedBatchProblem(sliceOf(contentsToArrow(damaged(3), DIM))) ?? '', /vector/, 'row 3 lies in it');
  const badLines = refs.map((r, i) => (i === 4 ? { ...r, startLine: 9, endLine: 1 } : r));
  assert.equal(storedBatchProblem(sliceOf(refsToArrow(refs))), null);
  assert.match(storedBatchProblem(sliceOf(refsToArrow(badLines))) ?? '', /lines 9-1/);
});

test('rows picked from a sliced batch are copied from its own rows, every column type', () => {
  const batch = sliceOf(contentsToArrow(contents, DIM));
  const picks = [2, 0].map((row) => ({ batch, row }));
  const field = (name: string) => batch.schema.fields.find((f) => f.name === name)!.type;
  const text = takeColumn('text', field('text'), picks);
  assert.deepEqual([0, 1].map((i) => Buffer.from(text.values.subarray(text.valueOffsets[i], text.valueOffsets[i + 1])).toString()), [texts[4], texts[2]]);
  const vectors = takeColumn('vector', field('vector'), picks);
  assert.deepEqual([...vectors.children[0].values], [...contents[4].vector, ...contents[2].vector]);
  const lines = sliceOf(refsToArrow(refs));
  const starts = takeColumn('start_line', lines.schema.fields.find((f) => f.name === 'start_line')!.type, [{ batch: lines, row: 1 }]);
  assert.deepEqual([...starts.values], [4]);
});
