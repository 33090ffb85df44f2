/**
 * A memo of a pure function on a hot path, bounded by forgetting everything once it holds `limit` entries: no
 * bookkeeping on a hit (as an LRU would need), and the working set of a run refills in one pass. Values are never
 * `undefined` (that reads as "not remembered").
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly limit: number) {}

  /** The value remembered for `key`, else `compute(key)`, remembered. */
  get(key: K, compute: (key: K) => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = compute(key);
      if (this.entries.size >= this.limit) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }
}
