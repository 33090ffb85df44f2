import type { Embedder } from '../embed/types.js';
import type { ChunkInfo, ChunkStore, ScoredChunk } from '../store/chunk-store.js';
import type { QueryInfo } from './query.js';
import type { SearchView, ViewFile } from './view.js';

/** What ranking needs from the store. The store holds every branch's chunks; the view decides what is visible. */
export interface Retriever {
  embed(query: string): Promise<Float32Array>;
  nearest(vector: Float32Array, limit: number): Promise<ScoredChunk[]>;
  lexical(words: string, vector: Float32Array, limit: number): Promise<(ScoredChunk & { cosine: number })[]>;
  chunksOf(blobs: string[], vector: Float32Array): Promise<(ChunkInfo & { cosine: number })[]>;
  totalChunks(): Promise<number>;
}

export function storeRetriever(store: ChunkStore, embedder: Embedder): Retriever {
  const vectors = new Map<string, Promise<Float32Array>>();
  let total: Promise<number> | null = null;
  return {
    embed(query) {
      if (!vectors.has(query)) vectors.set(query, embedder.embedQuery(query));
      return vectors.get(query)!;
    },
    nearest: (vector, limit) => store.nearest(vector, limit),
    lexical: (words, vector, limit) => store.lexical(words, vector, limit),
    chunksOf: (blobs, vector) => store.chunksOf(blobs, vector),
    totalChunks: () => (total ??= store.countChunks()),
  };
}

/** A visible chunk with the evidence the retrievers gave for it. */
export interface Candidate {
  chunk: ChunkInfo;
  /** Cosine between query and chunk vectors; known for every candidate. */
  cosine: number;
  /** Raw BM25 of the chunk, 0 when the lexical index did not return it. */
  bm25: number;
  /** Rank in each list (0-based), or -1 when absent. */
  denseRank: number;
  lexicalRank: number;
  files: ViewFile[];
}

export interface CandidateSettings {
  /** Visible candidates wanted from each retriever before the window stops growing. */
  perSource: number;
  dense: boolean;
  lexical: boolean;
}

/**
 * Visible candidates from both retrievers. The store is shared by all branches and the view may be a small
 * part of it (a path glob), so each retriever's window grows until it yields enough visible chunks.
 */
export async function gatherCandidates(retriever: Retriever, view: SearchView, q: QueryInfo, settings: CandidateSettings): Promise<{ vector: Float32Array; pool: Map<string, Candidate> }> {
  const vector = await retriever.embed(q.text);
  const total = await retriever.totalChunks();
  const pool = new Map<string, Candidate>();
  const words = q.terms.join(' ');
  const [dense, lexical] = await Promise.all([
    settings.dense ? visibleWindow(view, total, settings.perSource, (limit) => retriever.nearest(vector, limit)) : [],
    settings.lexical && words ? visibleWindow(view, total, settings.perSource, (limit) => retriever.lexical(words, vector, limit)) : [],
  ]);
  dense.forEach((c, rank) => pool.set(c.id, { chunk: infoOf(c), cosine: c.score, bm25: 0, denseRank: rank, lexicalRank: -1, files: view.byBlob.get(c.blob)! }));
  lexical.forEach((c, rank) => {
    const seen = pool.get(c.id);
    if (seen) {
      seen.bm25 = c.score;
      seen.lexicalRank = rank;
    } else pool.set(c.id, { chunk: infoOf(c), cosine: c.cosine, bm25: c.score, denseRank: -1, lexicalRank: rank, files: view.byBlob.get(c.blob)! });
  });
  return { vector, pool };
}

/** Adds every chunk of these blobs that is not a candidate yet (no BM25: it was not among the lexical hits). */
export async function addBlobs(retriever: Retriever, view: SearchView, vector: Float32Array, pool: Map<string, Candidate>, blobs: string[]): Promise<void> {
  const missing = blobs.filter((b) => view.byBlob.has(b));
  if (!missing.length) return;
  for (const c of await retriever.chunksOf(missing, vector)) {
    if (!pool.has(c.id)) pool.set(c.id, { chunk: infoOf(c), cosine: c.cosine, bm25: 0, denseRank: -1, lexicalRank: -1, files: view.byBlob.get(c.blob)! });
  }
}

async function visibleWindow<T extends ScoredChunk>(view: SearchView, total: number, want: number, fetch: (limit: number) => Promise<T[]>): Promise<T[]> {
  let limit = Math.min(total, Math.max(want * 2, 64));
  for (;;) {
    const rows = await fetch(limit);
    const visible = rows.filter((r) => view.byBlob.has(r.blob));
    if (visible.length >= want || rows.length < limit || limit >= total) return visible.slice(0, want);
    limit = Math.min(total, limit * 4);
  }
}

function infoOf(c: ChunkInfo & Record<string, unknown>): ChunkInfo {
  return { id: c.id, blob: c.blob, startLine: c.startLine, endLine: c.endLine, language: c.language, symbol: c.symbol, text: c.text };
}
