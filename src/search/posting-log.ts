import { stem } from '../text/stem.js';
import { SpanMemo } from '../util/span-memo.js';
import { forEachIndexedSpan } from './indexed-words.js';
import { packStrings } from './packed-strings.js';
import { hasLoneSurrogate, ListTable, PostingTable } from './postings.js';

/**
 * A resident set's postings as its chunks are added: each chunk's stems (numbered) and their summed weights,
 * appended to flat arrays, and put into the set's posting table only when it is read (`drainInto`). Appending each
 * word's weight to a growable list per stem as it came (tokio: 500,000 entries in 28,000 arrays), and slicing
 * every word out to find its stem, were most of building a set (index, import, first search: ~1 s of CPU on tokio).
 * Into an empty table, the drain lays the lists out packed and in order, as a snapshot keeps them: writing it
 * then packs nothing.
 */
export class PostingLog {
  /** Word as it appears in rows → its stem's number. */
  private readonly stemOf = new SpanMemo<number>(WORDS_REMEMBERED);
  private readonly stemIds = new Map<string, number>();
  private readonly stems: string[] = [];
  /** Per stem, the last chunk that had it and where that chunk's entry is in the log. */
  private lastChunk = new Int32Array(INITIAL_ROOM).fill(-1);
  private lastAt = new Int32Array(INITIAL_ROOM);
  /** The log: chunk, stem and summed weight of each entry, chunks in the order added. */
  private chunks = new Int32Array(INITIAL_ROOM);
  private stemsAt = new Int32Array(INITIAL_ROOM);
  private weights = new Float64Array(INITIAL_ROOM);
  private size = 0;

  /** Whether entries wait to be put into a table. */
  get pending(): boolean {
    return this.size > 0;
  }

  /**
   * Logs chunk `i`'s words (indexed-words.ts: its search words, name words and comment words) under their stems,
   * each stem once with its weights summed in the order met; returns the chunk's length (all its weights summed).
   * Chunks come in index order.
   */
  add(i: number, terms: string, symbol: string, text: string): number {
    let length = 0;
    forEachIndexedSpan(terms, symbol, text, (source, start, end, weight) => {
      const s = this.stemOf.get(source, start, end, this.numberStem);
      if (this.lastChunk[s] === i) this.weights[this.lastAt[s]] += weight;
      else this.append(i, s, weight);
      length += weight;
    });
    return length;
  }

  /**
   * Puts what was logged into `table` and empties the log; returns the table to use from now on. Into an empty
   * table: a new one, its lists laid out packed with their keys in order, as `ListTable.packing` would give them.
   */
  drainInto(table: PostingTable): PostingTable {
    if (!this.size) return table;
    const used = this.usedStems();
    const keys = used.map((s) => this.stems[s]);
    const out = table.lists.isEmpty() && !keys.some(hasLoneSurrogate) ? this.packedTable(used, keys) : this.appendTo(table, used);
    this.size = 0;
    this.lastChunk.fill(-1);
    // A long-lived set drains a few chunks at a time after its first load: no need to keep that load's room.
    if (this.chunks.length > INITIAL_ROOM) [this.chunks, this.stemsAt, this.weights] = [new Int32Array(INITIAL_ROOM), new Int32Array(INITIAL_ROOM), new Float64Array(INITIAL_ROOM)];
    return out;
  }

  private readonly numberStem = (word: string): number => {
    const s = stem(word);
    let id = this.stemIds.get(s);
    if (id === undefined) {
      id = this.stems.length;
      this.stemIds.set(s, id);
      this.stems.push(s);
      if (id === this.lastChunk.length) {
        this.lastChunk = grown(this.lastChunk, -1);
        this.lastAt = grown(this.lastAt, 0);
      }
    }
    return id;
  };

  private append(i: number, s: number, weight: number): void {
    if (this.size === this.chunks.length) {
      this.chunks = grown(this.chunks, 0);
      this.stemsAt = grown(this.stemsAt, 0);
      this.weights = grown(this.weights, 0);
    }
    this.lastChunk[s] = i;
    this.lastAt[s] = this.size;
    this.chunks[this.size] = i;
    this.stemsAt[this.size] = s;
    this.weights[this.size++] = weight;
  }

  /** The stems with entries in the log, their keys in order (JavaScript's, of UTF-16 units, as `packing` sorts them). */
  private usedStems(): number[] {
    const seen = new Uint8Array(this.stems.length);
    const used: number[] = [];
    for (let e = 0; e < this.size; e++) {
      const s = this.stemsAt[e];
      if (!seen[s]) used.push(s);
      seen[s] = 1;
    }
    return used.sort((a, b) => (this.stems[a] < this.stems[b] ? -1 : 1));
  }

  /** A table of these lists alone, packed: each stem's entries in the order logged, which is chunk order. */
  private packedTable(used: number[], keys: string[]): PostingTable {
    const next = new Int32Array(this.stems.length);
    for (let e = 0; e < this.size; e++) next[this.stemsAt[e]]++;
    const starts = new Uint32Array(used.length + 1);
    for (let k = 0; k < used.length; k++) {
      starts[k + 1] = starts[k] + next[used[k]];
      next[used[k]] = starts[k];
    }
    const docs = new Int32Array(this.size);
    const tfs = new Float32Array(this.size);
    for (let e = 0; e < this.size; e++) {
      const at = next[this.stemsAt[e]]++;
      docs[at] = this.chunks[e];
      tfs[at] = this.weights[e];
    }
    return new PostingTable(ListTable.unpack({ keys: packStrings(keys), starts, columns: [docs, tfs], inOrder: true }));
  }

  /** Appends the log's entries to the table's lists (a set restored from its snapshot, or drained before). */
  private appendTo(table: PostingTable, used: number[]): PostingTable {
    const lists = new Map<number, number[][]>();
    for (const s of used) lists.set(s, table.lists.writable(this.stems[s]));
    for (let e = 0; e < this.size; e++) {
      const [docs, tfs] = lists.get(this.stemsAt[e])!;
      docs.push(this.chunks[e]);
      tfs.push(this.weights[e]);
    }
    return table;
  }
}

/** Distinct words remembered with their stem's number before the memo starts afresh (as the memo of stems). */
const WORDS_REMEMBERED = 500_000;
/** Room for stems and entries at first, doubled as needed. */
const INITIAL_ROOM = 4096;

function grown<T extends Int32Array | Float64Array>(array: T, fill: number): T {
  const out = new (array.constructor as new (n: number) => T)(array.length * 2);
  out.set(array);
  out.fill(fill, array.length);
  return out;
}
