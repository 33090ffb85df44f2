/** Turns texts into L2-normalised vectors. One instance per model; reuse it. */
export interface Embedder {
  /** Stable model id recorded in the index (e.g. "ocrag/use-static-v2" or a folder's model name). */
  readonly modelId: string;
  readonly dim: number;
  /** Embeds documents (code chunks). Output order = input order; each vector has `dim` floats, L2 norm 1 (or all zeros for empty input). */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Embeds a search query (may apply a query prefix for models that need one). */
  embedQuery(text: string): Promise<Float32Array>;
  /** Frees workers / sessions. */
  close(): Promise<void>;
  /**
   * Frees what embedding documents holds (worker threads, the whole table) until the next `embed` loads it
   * again; queries still work. An index run calls it before the store's own memory-hungry work.
   */
  release?(): Promise<void>;
  /**
   * Sets up now what embedding about `texts` documents will need, where that is work of this thread: a caller
   * about to wait on other work (the store's look-up of which contents it holds) lets it overlap. Never throws:
   * the `embed` that needs what failed says why.
   */
  prepare?(texts: number): void;
}
