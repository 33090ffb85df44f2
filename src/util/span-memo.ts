/**
 * A memo keyed by a span of a string (`source` from `start` to `end`), found without slicing it out: a set's word
 * index looks up every word of every chunk (tokio: 1.4 million, 16,000 distinct), and slicing each out to look it
 * up in a Map was much of building the set and of its garbage. A key is sliced once, when first computed. Bounded
 * as BoundedMemo: forgets everything once it holds `limit` keys.
 */
export class SpanMemo<V> {
  private keys: string[] = [];
  private hashes = new Int32Array(INITIAL_KEYS);
  private values: V[] = [];
  /** Open addressing, linear probing: key number + 1, 0 for an empty slot; twice the keys' room, so at most half full. */
  private slots = new Int32Array(2 * INITIAL_KEYS);

  constructor(private readonly limit: number) {}

  /** The value remembered for the span's text, else `compute` of that text, remembered. */
  get(source: string, start: number, end: number, compute: (key: string) => V): V {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ source.charCodeAt(i), FNV_PRIME);
    h ^= h >>> 15;
    const mask = this.slots.length - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const k = this.slots[s] - 1;
      if (k < 0) break;
      if (this.hashes[k] === h && sameText(this.keys[k], source, start, end)) return this.values[k];
    }
    const key = start === 0 && end === source.length ? source : source.slice(start, end);
    const value = compute(key);
    if (this.keys.length >= this.limit) this.clear();
    this.insert(key, h, value);
    return value;
  }

  private insert(key: string, h: number, value: V): void {
    const k = this.keys.length;
    if (k === this.hashes.length) this.grow();
    this.keys.push(key);
    this.values.push(value);
    this.hashes[k] = h;
    this.place(k);
  }

  private place(k: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[k] & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = k + 1;
  }

  private grow(): void {
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.hashes = hashes;
    this.slots = new Int32Array(hashes.length * 2);
    for (let k = 0; k < this.keys.length; k++) this.place(k);
  }

  private clear(): void {
    this.keys = [];
    this.values = [];
    this.slots.fill(0);
  }
}

/** Keys a memo makes room for at first (a small repository's vocabulary), doubling as it fills. */
const INITIAL_KEYS = 4096;
/** 32-bit FNV-1a over UTF-16 code units, its high bits folded in (slots are picked by the low ones). */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

function sameText(key: string, source: string, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== source.charCodeAt(start + i)) return false;
  return true;
}
