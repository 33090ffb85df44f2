import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChunkRow } from '../../src/store/contract.js';
import { rowsToArrow } from '../../src/store/lance/chunk-arrow.js';
import { ResidentIndex } from '../../src/search/resident-index.js';
import { RowMemo } from '../../src/search/row-memo.js';
import { stem } from '../../src/text/stem.js';

const DIM = 16;

function row(i: number, symbol: string, text: string, terms: string): ChunkRow {
  return { id: `id${i}`, blob: `blob${i % 3}`, startLine: i * 10 + 1, endLine: i * 10 + 9, language: 'python', symbol, text, terms, vector: Float32Array.from({ length: DIM }, (_, d) => Math.sin(i * 7 + d)) };
}

const ROWS = [
  row(0, 'class Parser > def parse', '# Parsing the parsed input\ndef parse(self, text):\n    return self.parser.parse(text)', 'parse self text parser parse'),
  row(1, 'def parse_args', '"""Parse command line arguments."""\ndef parse_args(argv):\n    return argv', 'parse args argv parse_args'),
  row(2, 'class Router', '// routes requests\nclass Router:\n    routes = []', 'router routes'),
  row(3, '', 'x = 1 # a parse of x', 'x'),
];

/** What a query's ranking reads of a set: info, lengths, postings of every stem, definitions and cosines. */
function readable(set: ResidentIndex): unknown {
  const words = ROWS.flatMap((r) => `${r.terms} ${r.symbol} ${r.text}`.toLowerCase().split(/[^a-z_]+/)).filter(Boolean);
  const postings = Object.fromEntries([...new Set(words.map(stem))].map((s) => {
    const p = set.postings.get(s);
    return [s, p && { docs: [...p.docs], tfs: [...p.tfs] }];
  }));
  const all = Int32Array.from({ length: set.size }, (_, i) => i);
  return { info: set.info.map((c) => ({ ...c })), lengths: [...set.lengths], postings, parse: [...set.definitionsOf('parse')], cosines: [...set.cosines(Float32Array.from({ length: DIM }, (_, d) => d / DIM), all)] };
}

describe('rows indexed before, kept by id', () => {
  test('give a set of candidates what indexing the rows afresh gives it, the first time and after', () => {
    const batch = rowsToArrow(ROWS, DIM).batches[0]!;
    const wanted = new Set(ROWS.map((r) => r.blob));
    const plain = new ResidentIndex(DIM);
    plain.add(batch, wanted);
    const memo = new RowMemo(100);
    let computed = 0;
    const get = memo.get.bind(memo);
    memo.get = (id, blob, compute) => get(id, blob, () => (computed++, compute()));
    for (const round of [1, 2]) {
      const set = new ResidentIndex(DIM);
      set.rowMemo = memo;
      set.add(batch, wanted);
      assert.deepEqual(readable(set), readable(plain), `round ${round}`);
      assert.equal(computed, ROWS.length, `round ${round}: each row indexed once, through the memo`);
    }
  });

  test('rows given without their content are those held in hand, even once the memo forgot them', () => {
    const batch = rowsToArrow(ROWS, DIM).batches[0]!;
    const bare = batch.select(['id', 'blob', 'start_line', 'end_line', 'language']);
    const wanted = new Set(ROWS.map((r) => r.blob));
    const plain = new ResidentIndex(DIM);
    plain.add(batch, wanted);
    const memo = new RowMemo(ROWS.length);
    const first = new ResidentIndex(DIM);
    first.rowMemo = memo;
    first.add(batch, wanted);
    const held = new Map(ROWS.map((r) => [r.id, memo.peek(r.id, r.blob)!]));
    assert.ok([...held.values()].every(Boolean));
    assert.equal(memo.peek(ROWS[0].id, 'another blob'), undefined, 'a row is kept for its blob only');
    // One more row fills the memo: it forgets the four.
    memo.get('other', 'blob9', () => ({ info: { id: 'other', blob: 'blob9', startLine: 1, endLine: 1, language: 'ts', symbol: '', text: '' }, stems: [], tfs: [], length: 0, vector: new Int8Array(DIM), scale: 1 }));
    assert.equal(memo.peek(ROWS[0].id, ROWS[0].blob), undefined);
    const set = new ResidentIndex(DIM);
    set.rowMemo = memo;
    set.heldRows = held;
    set.add(bare, wanted);
    assert.deepEqual(readable(set), readable(plain));
    const unheld = new ResidentIndex(DIM);
    unheld.rowMemo = new RowMemo(100);
    assert.throws(() => unheld.add(bare, wanted), /without its symbol column/, 'a row neither held nor given whole is an error, never an empty row');
  });

  test('a set of memo rows refuses a row indexed apart, which its postings would never find', () => {
    const set = new ResidentIndex(DIM);
    set.rowMemo = new RowMemo(ROWS.length);
    set.add(rowsToArrow(ROWS.slice(0, 2), DIM).batches[0]!, new Set(ROWS.map((r) => r.blob)));
    assert.throws(() => set.addRows([ROWS[2]]), /takes no row indexed apart/);
  });

  test('forget everything once full, and a row of another blob under a known id is indexed afresh', () => {
    const memo = new RowMemo(2);
    let computed = 0;
    const make = (blob: string) => () => {
      computed++;
      return { info: { id: 'x', blob, startLine: 1, endLine: 1, language: 'ts', symbol: '', text: '' }, stems: [], tfs: [], length: 0, vector: new Int8Array(DIM), scale: 1 };
    };
    memo.get('a', 'b1', make('b1'));
    memo.get('a', 'b1', make('b1'));
    assert.equal(computed, 1);
    memo.get('a', 'b2', make('b2'));
    assert.equal(computed, 2);
    memo.get('c', 'b1', make('b1'));
    memo.get('d', 'b1', make('b1'));
    memo.get('a', 'b2', make('b2'));
    assert.equal(computed, 5, 'the memo was cleared when full');
  });

  test('a set whose rows were numbered by vocabularies begun afresh in between has the same postings', () => {
    // Six rows of forty words each through a memo of two: cleared every second row, its vocabulary (over
    // sixteen stems a row kept) begun afresh each time, so one set holds rows of three vocabularies.
    const wide = Array.from({ length: 6 }, (_, i) => {
      const words = Array.from({ length: 40 }, (_, w) => `word${(i * 17 + w * 3) % 90}x`).join(' ');
      return row(i, `def f${i}`, words, words);
    });
    const batch = rowsToArrow(wide, DIM).batches[0]!;
    const wanted = new Set(wide.map((r) => r.blob));
    const plain = new ResidentIndex(DIM);
    plain.add(batch, wanted);
    const set = new ResidentIndex(DIM);
    const memo = new RowMemo(2);
    const vocabularies = new Set<unknown>();
    const get = memo.get.bind(memo);
    memo.get = (id, blob, compute) => {
      const kept = get(id, blob, compute);
      vocabularies.add(kept.vocabulary);
      return kept;
    };
    set.rowMemo = memo;
    set.add(batch, wanted);
    assert.equal(vocabularies.size, 3, 'the vocabulary was begun afresh at each clearing');
    const stems = [...new Set(wide.flatMap((r) => r.terms.split(' ')).map(stem))];
    const lists = (s: ResidentIndex) => stems.map((w) => { const p = s.postings.get(w); return p && [[...p.docs], [...p.tfs]]; });
    assert.deepEqual(lists(set), lists(plain));
    assert.ok(lists(plain).every((p) => p && p[0].length > 0));
  });
});
