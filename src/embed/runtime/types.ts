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
}
