// Chunk columns are written straight into one buffer: the same bytes and offsets Arrow's own builder gives, lone
// surrogates included (both write U+FFFD), so the stored rows do not change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import arrow from '../../src/store/arrow.js';
import { contentsToArrow, refsToArrow } from '../../src/store/lance/chunk-arrow.js';

const TEXTS = ['', 'a', 'plain ascii', 'é ü ß', '解析参数', '😀 emoji', 'lone \uD800 high', 'lone \uDC00 low', 'x'.repeat(70_000), '\u0000nul'];

function builderColumn(values: string[]) {
  return arrow.vectorFromArray(values, new arrow.Utf8()).data[0]!;
}

test('a string column has the bytes, offsets and values of Arrow\'s builder', () => {
  const rows = TEXTS.map((text, i) => ({ key: `k${i}`, symbol: `s ${text.slice(0, 5)}`, text, terms: text.toLowerCase(), vector: new Float32Array([i, -i]) }));
  const table = contentsToArrow(rows, 2);
  for (const [column, values] of [['text', TEXTS], ['terms', TEXTS.map((t) => t.toLowerCase())]] as const) {
    const data = table.getChild(column)!.data[0]!;
    const expected = builderColumn([...values]);
    assert.deepEqual([...data.valueOffsets], [...expected.valueOffsets.subarray(0, values.length + 1)], `${column} offsets`);
    assert.deepEqual(Buffer.from(data.values), Buffer.from(expected.values.subarray(0, expected.valueOffsets[values.length])), `${column} bytes`);
    assert.deepEqual(table.getChild(column)!.toArray(), arrow.vectorFromArray([...values], new arrow.Utf8()).toArray(), `${column} values`);
  }
  const refs = refsToArrow(rows.map((r, i) => ({ id: `id${i}`, blob: 'b'.repeat(40), startLine: i, endLine: i + 1, language: 'rust', key: r.key })));
  assert.deepEqual(refs.getChild('id')!.toArray(), rows.map((_, i) => `id${i}`));
  assert.equal(refs.numRows, rows.length);
});
