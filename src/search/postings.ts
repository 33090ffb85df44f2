import { runAll, type Steps } from '../util/event-loop.js';
import { packStrings, unpackStrings, type PackedStrings } from './packed-strings.js';

/** Numbers a reader may index and iterate: plain arrays while growing, typed views once restored. */
export type NumberList = ArrayLike<number> & Iterable<number>;

/** Parallel lists of numbers by key, flat: key k owns items `starts[k] .. starts[k+1]` of every column. */
export interface PackedLists {
  keys: PackedStrings;
  starts: Uint32Array;
  columns: (Int32Array | Float32Array)[];
  /**
   * The keys are in ascending order (JavaScript's, of UTF-16 units), none twice, each read back exactly as written
   * (well-formed): a reader then finds a key by bisection instead of mapping every key first (see `sortedFinder`).
   */
  inOrder?: boolean;
}

/** Keys handled between two chances to pause while packing (a few hundred microseconds of copying). */
const STEP_KEYS = 4096;

/** Element type of each column: indices are whole numbers, weights may be halves. */
export type ColumnKind = 'int32' | 'float32';

/**
 * Key → parallel lists of numbers (a word's chunks and frequencies; a name's defining chunks). Restored lists stay
 * views into the flat columns they were read from until something is added to them: a one-shot search looks up
 * a handful of keys, so building a list per key on start would be waste.
 */
export class ListTable {
  private readonly live = new Map<string, NumberList[]>();
  private packed: Part | null = null;
  /** Packed lists appended after the restored ones (`append`). */
  private readonly parts: Part[] = [];
  /** Whether a list was made writable or appended since the table was restored (`get` keeps views, which change nothing). */
  private written = false;

  constructor(readonly kinds: ColumnKind[]) {}

  /**
   * A table of packed lists, kept as they are. Keys in order (`inOrder`) are found by bisection over their text;
   * others through a map of every key, made here: for tokio's 19,000 keys, decoding, slicing and mapping them was
   * 6-10 ms of a one-shot search that looks up a handful.
   */
  static unpack(lists: PackedLists): ListTable {
    const table = new ListTable(lists.columns.map((c) => (c instanceof Int32Array ? 'int32' : 'float32')));
    table.packed = { find: finderOf(lists), lists, offset: 0 };
    return table;
  }

  /**
   * False when the keys were said to be in order (`inOrder`) and are not: a set from elsewhere whose look-ups by
   * bisection would miss words it lists. Reads every key.
   */
  keysAsSaid(): boolean {
    return this.restoredParts().every((part) => {
      if (!part.lists.inOrder) return true;
      const keys = unpackStrings(part.lists.keys);
      for (let k = 1; k < keys.length; k++) if (!(keys[k - 1] < keys[k])) return false;
      return !keys.some(hasLoneSurrogate);
    });
  }

  get(key: string): NumberList[] | undefined {
    let lists = this.live.get(key);
    if (!lists) {
      lists = this.restoredLists(key);
      if (lists) this.live.set(key, lists);
    }
    return lists;
  }

  /**
   * Adds packed lists after every list the table holds, their first column (chunk indices) counted from `offset`,
   * kept as they are: a snapshot's segments. Taking a segment's rows in one by one turned each list they touch from a
   * view into an array (tokio: ~30 ms of a one-shot search after three one-file commits, issue 31); a look-up now
   * joins the few lists it reads. Lists made writable already take the new items at their end.
   */
  append(lists: PackedLists, offset: number): void {
    const part: Part = { find: finderOf(lists), lists, offset };
    for (const [key, held] of this.live) {
      const k = part.find(key);
      if (k === undefined) continue;
      // A view read before: read again, with this part.
      if (!Array.isArray(held[0])) this.live.delete(key);
      else partLists(part, k).forEach((list, c) => { for (const x of list) (held[c] as number[]).push(x); });
    }
    this.parts.push(part);
    this.written = true;
  }

  /** The packed lists restored, then those appended, in chunk order. */
  private restoredParts(): Part[] {
    return this.packed ? [this.packed, ...this.parts] : this.parts;
  }

  /** A key's restored lists (the snapshot's, then each appended part's), views when one part alone holds it. */
  private restoredLists(key: string): NumberList[] | undefined {
    const found: NumberList[][] = [];
    for (const part of this.restoredParts()) {
      const k = part.find(key);
      if (k !== undefined) found.push(partLists(part, k));
    }
    if (found.length <= 1) return found[0];
    return this.kinds.map((kind, c) => {
      const length = found.reduce((n, lists) => n + lists[c].length, 0);
      const out = kind === 'int32' ? new Int32Array(length) : new Float32Array(length);
      let at = 0;
      for (const lists of found) {
        out.set(lists[c], at);
        at += lists[c].length;
      }
      return out;
    });
  }

  /** Whether the table holds no key. */
  isEmpty(): boolean {
    return this.live.size === 0 && this.restoredParts().every((part) => !part.lists.keys.ends.length);
  }

  /** The lists of a key to append to, created when missing; the same array `get` returns, now of growable lists. */
  writable(key: string): number[][] {
    this.written = true;
    let lists = this.get(key);
    if (!lists) this.live.set(key, (lists = this.kinds.map(() => [])));
    else if (!Array.isArray(lists[0])) lists.forEach((list, c) => (lists![c] = Array.from(list)));
    return lists as number[][];
  }

  pack(): PackedLists {
    return runAll(this.packing());
  }

  /** As `pack`, in steps that may pause between them (see Steps). */
  *packing(): Steps<PackedLists> {
    // A restored table nothing was added to packs to what it was restored from (a search set checked on arrival),
    // once its keys are in order.
    if (this.packed?.lists.inOrder && !this.written) return this.packed.lists;
    const restored = this.restoredParts().flatMap((part) => unpackStrings(part.lists.keys));
    const keys = [...new Set([...restored, ...this.live.keys()])].sort();
    const starts = new Uint32Array(keys.length + 1);
    const lists: NumberList[][] = [];
    for (let k = 0; k < keys.length; k++) {
      const list = this.listsOf(keys[k]);
      lists.push(list);
      starts[k + 1] = starts[k] + list[0].length;
      if (k % STEP_KEYS === STEP_KEYS - 1) yield;
    }
    const columns = this.kinds.map((kind) => (kind === 'int32' ? new Int32Array(starts[keys.length]) : new Float32Array(starts[keys.length])));
    for (let k = 0; k < keys.length; k++) {
      lists[k].forEach((list, c) => columns[c].set(list, starts[k]));
      if (k % STEP_KEYS === STEP_KEYS - 1) yield;
    }
    return { keys: packStrings(keys), starts, columns, inOrder: !keys.some(hasLoneSurrogate) };
  }

  /** A key's lists as they are, without keeping a view of restored ones (packing visits every key once). */
  private listsOf(key: string): NumberList[] {
    return this.live.get(key) ?? this.restoredLists(key)!;
  }
}

/** Packed lists and how their keys are found; the first column's items count from `offset`. */
interface Part {
  find: (key: string) => number | undefined;
  lists: PackedLists;
  offset: number;
}

function finderOf(lists: PackedLists): (key: string) => number | undefined {
  return lists.inOrder ? sortedFinder(lists.keys) : mappedFinder(lists.keys);
}

/** Key number k's lists in a part: views, but for indices counted from a part's offset. */
function partLists({ lists: { starts, columns }, offset }: Part, k: number): NumberList[] {
  return columns.map((column, c) => {
    const view = column.subarray(starts[k], starts[k + 1]);
    return c === 0 && offset !== 0 ? view.map((x) => x + offset) : view;
  });
}

/** A lone surrogate is written as U+FFFD (packed-strings.ts): such a key reads back as another, out of order. */
export const hasLoneSurrogate = (key: string) => /\p{Surrogate}/u.test(key);

/** Key → its number, through a map of every key (the last of a key listed twice, as a map made in order keeps). */
function mappedFinder(keys: PackedStrings): (key: string) => number | undefined {
  const index = new Map<string, number>();
  unpackStrings(keys).forEach((key, k) => index.set(key, k));
  return (key) => index.get(key);
}

// ignoreBOM: a first key may begin with U+FEFF, which must stay part of it (as unpackStrings keeps it).
const keysDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Key → its number, by bisection over keys in order (`inOrder`), their text decoded whole at the first look-up. */
function sortedFinder({ utf8, ends }: PackedStrings): (key: string) => number | undefined {
  let text: string | null = null;
  return (key) => {
    text ??= keysDecoder.decode(utf8);
    let lo = 0;
    let hi = ends.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const probe = text.slice(mid ? ends[mid - 1] : 0, ends[mid]);
      if (probe === key) return mid;
      if (probe < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
}

/** The chunks holding a word, with the word's (field-weighted) frequency in each. */
export interface Posting {
  docs: NumberList;
  tfs: NumberList;
}

/** Word → posting, over a two-column list table. */
export class PostingTable {
  constructor(readonly lists = new ListTable(['int32', 'float32'])) {}

  get(word: string): Posting | undefined {
    const lists = this.lists.get(word);
    return lists && { docs: lists[0], tfs: lists[1] };
  }
}
