// Content keys hashed from a column's bytes are the keys contentKey gives the strings those bytes hold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentKey, keysOfBytes, type Utf8Bytes } from '../../src/store/content-key.js';

function column(parts: Uint8Array[]): Utf8Bytes {
  const valueOffsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (valueOffsets[i + 1] = valueOffsets[i] + p.length));
  const values = new Uint8Array(valueOffsets[parts.length]);
  parts.forEach((p, i) => values.set(p, valueOffsets[i]));
  return { valueOffsets, values };
}

test('keysOfBytes gives contentKey of each row, a leading U+FEFF and a row longer than its scratch included', () => {
  const symbols = ['', 'fn main', '\uFEFFmod', 'é 解析', 'a'];
  const texts = ['', '\uFEFF\uFEFF# marks', 'x'.repeat(200_000), '😀\0nul', 'y'];
  const enc = (s: string) => Buffer.from(s, 'utf8');
  const keyOf = keysOfBytes([column(symbols.map(enc)), column(texts.map(enc))], () => assert.fail('every row is valid UTF-8'));
  symbols.forEach((s, row) => assert.equal(keyOf(row), contentKey(s, texts[row]), `row ${row}`));
});

test('keysOfBytes keys a row that is not valid UTF-8 from its strings as the caller decodes them', () => {
  const bad = new Uint8Array([0x61, 0xff, 0x62]);
  const keyOf = keysOfBytes([column([Buffer.from('sym')]), column([bad])], (row) => (assert.equal(row, 0), ['sym', 'a\uFFFDb']));
  assert.equal(keyOf(0), contentKey('sym', 'a\uFFFDb'));
});
