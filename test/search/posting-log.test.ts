import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMENT_FIELD_WEIGHT, NAME_FIELD_WEIGHT } from '../../src/search/indexed-words.js';
import { PostingLog } from '../../src/search/posting-log.js';
import { ListTable, PostingTable } from '../../src/search/postings.js';
import { nameWords } from '../../src/text/breadcrumb.js';
import { commentWords } from '../../src/text/comments.js';
import { stem } from '../../src/text/stem.js';

interface Row {
  terms: string;
  symbol: string;
  text: string;
}

const ROWS: Row[] = [
  { terms: 'parse self text parser parse', symbol: 'class Parser > def parse', text: '# Parsing the parsed input\ndef parse(self, text):\n    return self.parser.parse(text)' },
  { terms: 'parse args  argv parse_args ', symbol: 'def parse_args', text: '"""Parse command line arguments."""\ndef parse_args(argv):\n    return argv' },
  { terms: '', symbol: '', text: '' },
  { terms: 'router routes 解析 析参', symbol: 'class Router', text: '// routes requests, 解析参数\nclass Router:\n    routes = []' },
  { terms: 'x \ud800lone', symbol: '', text: 'x = 1 # a parse of x' },
];

/**
 * A chunk's words and weights as the set found them before spans: its search words split at spaces, its name words
 * and its comment words (comments.test.ts holds commentWords to a split into lines).
 */
function words(r: Row, visit: (word: string, weight: number) => void): void {
  for (const word of r.terms.split(' ')) if (word) visit(word, 1);
  for (const word of nameWords(r.symbol)) visit(word, NAME_FIELD_WEIGHT);
  for (const word of commentWords(r.text)) visit(word, COMMENT_FIELD_WEIGHT);
}

/** The postings and lengths as the set built them before the log: each word's weight appended to its stem's lists. */
function reference(rows: Row[], table = new ListTable(['int32', 'float32']), first = 0): { table: ListTable; lengths: number[] } {
  const lengths: number[] = [];
  rows.forEach((r, j) => {
    const i = first + j;
    let length = 0;
    words(r, (word, weight) => {
      const [docs, tfs] = table.writable(stem(word));
      if (docs[docs.length - 1] === i) tfs[tfs.length - 1] += weight;
      else {
        docs.push(i);
        tfs.push(weight);
      }
      length += weight;
    });
    lengths.push(length);
  });
  return { table, lengths };
}

function logged(rows: Row[], into = new PostingTable(), first = 0): { table: ListTable; lengths: number[] } {
  const log = new PostingLog();
  const lengths = rows.map((r, j) => log.add(first + j, r.terms, r.symbol, r.text));
  return { table: log.drainInto(into).lists, lengths };
}

describe('a set\'s posting log', () => {
  test('gives the lists and lengths appending each word gave, and packs to the same bytes', () => {
    const rows = ROWS.filter((r) => !r.terms.includes('\ud800'));
    const want = reference(rows);
    const got = logged(rows);
    assert.deepEqual(got.lengths, want.lengths);
    assert.deepEqual(got.table.pack(), want.table.pack());
    for (const key of ['pars', 'rout', '解析', 'argv', 'nothing']) {
      const [a, b] = [got.table.get(key), want.table.get(key)];
      assert.deepEqual(a && a.map((l) => [...l]), b && b.map((l) => [...l]), key);
    }
  });

  test('a key with a lone surrogate goes in as appending each word put it', () => {
    const want = reference(ROWS);
    const got = logged(ROWS);
    assert.deepEqual(got.lengths, want.lengths);
    assert.deepEqual(got.table.pack(), want.table.pack());
  });

  test('appends after what a table holds already: a restored set, or a log drained before', () => {
    const restored = reference(ROWS.slice(0, 2)).table.pack();
    const want = reference(ROWS.slice(2), ListTable.unpack(restored), 2);
    const got = logged(ROWS.slice(2), new PostingTable(ListTable.unpack(restored)), 2);
    assert.deepEqual(got.lengths, want.lengths);
    assert.deepEqual(got.table.pack(), want.table.pack());

    const log = new PostingLog();
    let table = new PostingTable();
    ROWS.forEach((r, i) => {
      log.add(i, r.terms, r.symbol, r.text);
      table = log.drainInto(table);
    });
    assert.deepEqual(table.lists.pack(), reference(ROWS).table.pack());
  });

  test('past its first room: a chunk of thousands of stems, thousands of entries, drained and added to again', () => {
    // The log starts with room for 4,096 stems and entries: the first chunk alone outgrows both.
    const first = Array.from({ length: 5000 }, (_, w) => `word${w}x`).join(' ');
    const rows: Row[] = [{ terms: first, symbol: 'def word1x', text: '# word2x word3x' }];
    for (let i = 1; i < 3000; i++) rows.push({ terms: `word${i}x word${(i * 7) % 5000}x word${i}x new${i}y`, symbol: '', text: '' });
    const want = reference(rows);
    const log = new PostingLog();
    const lengths = rows.slice(0, 1500).map((r, i) => log.add(i, r.terms, r.symbol, r.text));
    let table = log.drainInto(new PostingTable());
    lengths.push(...rows.slice(1500).map((r, j) => log.add(1500 + j, r.terms, r.symbol, r.text)));
    table = log.drainInto(table);
    assert.deepEqual(lengths, want.lengths);
    assert.deepEqual(table.lists.pack(), want.table.pack());
  });
});
