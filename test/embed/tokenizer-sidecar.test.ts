import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { unigramTokenizerJson } from '../../src/embed/runtime/code-tokenizer.js';
import { readTokenizerFile } from '../../src/embed/runtime/tokenizer-sidecar.js';
import { tempDir } from '../helpers.js';

/** A tokenizer.json of made-up pieces (this judges file handling, not tokenization). */
function writeTokenizer(dir: string, pieces: [string, number][]): string {
  const file = path.join(dir, 'tokenizer.json');
  fs.writeFileSync(file, JSON.stringify(unigramTokenizerJson(pieces, 0)));
  return file;
}

describe('tokenizer.json vocabulary sidecar', () => {
  const pieces: [string, number][] = [['<unk>', 0], ['▁parse', -3.5], ['解析', -11.75], ['参数', -10.125], ['▁', -5.5]];

  test('the sidecar gives back exactly what the JSON says, and is written on first read', () => {
    const file = writeTokenizer(tempDir('sidecar'), pieces);
    const first = readTokenizerFile(file);
    assert.equal(first.columns, undefined, 'the first read parses the JSON');
    assert.ok(fs.existsSync(`${file}.ocrag-vocab2`));
    const second = readTokenizerFile(file);
    assert.ok(second.columns, 'the second read comes from the sidecar');
    assert.deepEqual(second.columns.all(), pieces.map(([piece]) => piece));
    assert.deepEqual([...second.columns.scores], pieces.map(([, score]) => score));
    assert.equal(second.columns.minScore, -11.75);
    assert.deepEqual(second.json, JSON.parse(fs.readFileSync(file, 'utf8')));
    assert.deepEqual(second.json, first.json);
  });

  test('a changed tokenizer.json is read again, never an old sidecar', () => {
    const file = writeTokenizer(tempDir('sidecar'), pieces);
    readTokenizerFile(file);
    const changed: [string, number][] = [...pieces, ['▁args', -4.25]];
    writeTokenizer(path.dirname(file), changed);
    const model = readTokenizerFile(file).json.model as { vocab: [string, number][] };
    assert.deepEqual(model.vocab, changed);
  });

  test('the pieces before the CJK-only tail come apart, the tail only when asked for', () => {
    const withTail: [string, number][] = [...pieces, ['▁args', -4.25], ['参数', -10.5], ['解析器', -12.5]];
    const file = writeTokenizer(tempDir('sidecar'), withTail);
    readTokenizerFile(file);
    const { columns } = readTokenizerFile(file);
    assert.ok(columns);
    assert.deepEqual(columns.head, withTail.slice(0, 6).map(([piece]) => piece), 'a CJK piece inside the vocabulary stays in the head');
    assert.deepEqual(columns.all(), withTail.map(([piece]) => piece));
    assert.equal(columns.minScore, -12.5);
  });

  test('a sidecar whose pieces changed after it was written is refused', () => {
    const withTail: [string, number][] = [...pieces, ['解析器', -12.5]];
    const file = writeTokenizer(tempDir('sidecar'), withTail);
    readTokenizerFile(file);
    const bytes = fs.readFileSync(`${file}.ocrag-vocab2`);
    // The last byte of the last piece, in the tail that is split only when asked for: the checksum catches it at once.
    bytes[bytes.length - withTail.length * 8 - 1] ^= 1;
    fs.writeFileSync(`${file}.ocrag-vocab2`, bytes);
    const read = readTokenizerFile(file);
    assert.equal(read.columns, undefined, 'parsed from the JSON again');
    assert.deepEqual((read.json.model as { vocab: unknown }).vocab, withTail);
  });

  test('a torn or foreign sidecar is ignored and replaced', () => {
    const file = writeTokenizer(tempDir('sidecar'), pieces);
    readTokenizerFile(file);
    for (const damage of [Buffer.from('garbage'), fs.readFileSync(`${file}.ocrag-vocab2`).subarray(0, 40), Buffer.alloc(0)]) {
      fs.writeFileSync(`${file}.ocrag-vocab2`, damage);
      assert.deepEqual((readTokenizerFile(file).json.model as { vocab: unknown }).vocab, pieces);
      const again = readTokenizerFile(file);
      assert.deepEqual((again.json.model as { vocab: unknown }).vocab, pieces);
      assert.ok(again.columns, 'replaced by a good sidecar');
    }
  });
});
