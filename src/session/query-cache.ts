import type { Embedder } from '../embed/index.js';

/**
 * The model with a small LRU of query vectors in front of `embedQuery`: agents repeat queries (and
 * `find_symbol` re-asks names), and a transformer model spends most of a search embedding the query.
 */
export class QueryCache implements Embedder {
  private readonly vectors = new Map<string, Promise<Float32Array>>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly model: Embedder,
    private readonly capacity = 256,
  ) {}

  get modelId(): string {
    return this.model.modelId;
  }

  get dim(): number {
    return this.model.dim;
  }

  get size(): number {
    return this.vectors.size;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return this.model.embed(texts);
  }

  embedQuery(text: string): Promise<Float32Array> {
    const cached = this.vectors.get(text);
    if (cached) {
      this.hits++;
      // Re-inserting moves the entry to the young end: Map iteration order is insertion order.
      this.vectors.delete(text);
      this.vectors.set(text, cached);
      return cached;
    }
    this.misses++;
    const vector = this.model.embedQuery(text);
    vector.catch(() => this.vectors.delete(text));
    this.vectors.set(text, vector);
    if (this.vectors.size > this.capacity) this.vectors.delete(this.vectors.keys().next().value!);
    return vector;
  }

  prepare(texts: number): void {
    this.model.prepare?.(texts);
  }

  async release(): Promise<void> {
    await this.model.release?.();
  }

  close(): Promise<void> {
    this.vectors.clear();
    return this.model.close();
  }
}
