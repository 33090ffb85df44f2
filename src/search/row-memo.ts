import type { ChunkInfo } from '../store/contract.js';
import { stem } from '../text/stem.js';
import { forEachIndexedWord } from './indexed-words.js';
import { Vocabulary, type NumberedStems } from './memo-postings.js';

/**
 * A chunk as a resident set indexes it: its info, the stems of its words (each once, in the order first met) with
 * their summed field weights, its length and its int8 vector: what `ResidentIndex.addRow` works out from a row.
 */
export interface IndexedRow {
  info: ChunkInfo;
  stems: string[];
  tfs: number[];
  length: number;
  vector: Int8Array;
  scale: number;
}

/** Works out a row's indexing, adding weights in the order addRow adds them, so the same sums. */
export function indexRow(info: ChunkInfo, terms: string, { vector, scale }: { vector: Int8Array; scale: number }): IndexedRow {
  const at = new Map<string, number>();
  const stems: string[] = [];
  const tfs: number[] = [];
  let length = 0;
  forEachIndexedWord(terms, info.symbol, info.text, (word, weight) => {
    const s = stem(word);
    const k = at.get(s);
    if (k === undefined) {
      at.set(s, stems.length);
      stems.push(s);
      tfs.push(weight);
    } else tfs[k] += weight;
    length += weight;
  });
  return { info, stems, tfs, length, vector, scale };
}

/**
 * Rows indexed for earlier queries, by chunk id (an id is its blob, chunker, model and span: always the same row).
 * A large view is searched among each query's candidates from the store's indexes, in a set of their own
 * (candidates.ts): its queries bring back many of the same chunks, whose words were split, stemmed and weighed
 * again each time (sympy: ~300 rows and 25 ms of a 57 ms search). Forgets everything once full, as BoundedMemo.
 */
export class RowMemo {
  private readonly rows = new Map<string, MemoRow>();
  /** Numbers of the stems of the rows kept (memo-postings.ts); begun afresh with the rows once it outgrows them. */
  vocabulary = new Vocabulary();

  constructor(private readonly limit: number) {}

  /** The row kept for this chunk, if any; looks, never computes. */
  peek(id: string, blob: string): MemoRow | undefined {
    const row = this.rows.get(id);
    return row?.info.blob === blob ? row : undefined;
  }

  get(id: string, blob: string, compute: () => IndexedRow): MemoRow {
    let row = this.rows.get(id);
    if (row?.info.blob !== blob) {
      const indexed = compute();
      if (this.rows.size >= this.limit) {
        this.rows.clear();
        if (this.vocabulary.ids.size > VOCABULARY_PER_ROW * this.limit) this.vocabulary = new Vocabulary();
      }
      const vocabulary = this.vocabulary;
      row = { ...indexed, vocabulary, ids: Int32Array.from(indexed.stems, (s) => vocabulary.idOf(s)) };
      this.rows.set(id, row);
    }
    return row;
  }
}

/** A row kept, its stems numbered. */
export type MemoRow = IndexedRow & NumberedStems;

/** Distinct stems per row kept beyond which the vocabulary is begun afresh (a row has a few dozen). */
const VOCABULARY_PER_ROW = 16;
