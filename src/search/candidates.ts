import path from 'node:path';
import type { Embedder } from '../embed/types.js';
import type { ChunkInfo } from '../store/chunk-store.js';
import type { StoreHandle } from '../store/store-handle.js';
import { bm25, topEntries, visibleChunks, type VisibleChunks } from './lexical.js';
import type { QueryInfo } from './query.js';
import { residentFor, type ResidentChunks } from './resident.js';
import type { SearchView, ViewFile } from './view.js';

/** What search needs from an index: the query's vector, the view's chunks in memory, and (to compare) the store's FTS. */
export interface Retriever {
  embed(query: string): Promise<Float32Array>;
  load(view: SearchView): Promise<{ resident: ResidentChunks; visible: VisibleChunks }>;
  /** LanceDB's own full-text search over `terms`, kept to measure against the resident BM25. */
  fts?(words: string, limit: number): Promise<{ id: string; score: number }[]>;
}

/** `generation` names the store's current incarnation (its creation time): chunks cached in memory belong to it. */
export function storeRetriever(store: StoreHandle, embedder: Embedder, generation = ''): Retriever {
  const vectors = new Map<string, Promise<Float32Array>>();
  const resident = residentFor(`${store.dir}\n${embedder.modelId}\n${generation}`, store.dim, path.join(store.dir, '..', 'resident'));
  return {
    embed(query) {
      if (!vectors.has(query)) vectors.set(query, embedder.embedQuery(query));
      return vectors.get(query)!;
    },
    async load(view) {
      await resident.ensure(store, view.byBlob.keys());
      return { resident, visible: visibleChunks(resident, resident.chunksOf(view, view.byBlob.keys())) };
    },
    async fts(words, limit) {
      const rows = await (await store.get()).lexical(words, new Float32Array(store.dim), limit);
      return rows.map((r) => ({ id: r.id, score: r.score }));
    },
  };
}

/** A visible chunk with the evidence the retrievers gave for it. */
export interface Candidate {
  index: number;
  chunk: ChunkInfo;
  /** Cosine between query and chunk vectors; known for every candidate. */
  cosine: number;
  /** BM25 of the chunk, 0 when it matched no query word. */
  bm25: number;
  /** Rank in each retriever's list (0-based), or -1 when absent. */
  denseRank: number;
  lexicalRank: number;
  files: ViewFile[];
}

export interface CandidateSettings {
  /** Candidates taken from each retriever. */
  perSource: number;
  dense: boolean;
  lexical: boolean;
  lexicalEngine: 'bm25' | 'fts';
  bm25K1: number;
  bm25B: number;
  symbols: boolean;
}

/** Everything ranking looks at: the candidates, and every visible chunk's cosine and BM25 for file-level evidence. */
export interface CandidatePool {
  pool: Map<number, Candidate>;
  resident: ResidentChunks;
  visible: VisibleChunks;
  /** Cosine per resident chunk index (visible ones only are set). */
  cosine: Float32Array;
  lexical: Map<number, number>;
  /** Names the query gives that have a visible definition (others may be answered by a re-export). */
  defined: Set<string>;
}

/** The best chunks by meaning and by words among exactly the view's chunks, each carrying both scores. */
export async function gatherCandidates(retriever: Retriever, view: SearchView, q: QueryInfo, settings: CandidateSettings): Promise<CandidatePool> {
  const [vector, { resident, visible }] = await Promise.all([retriever.embed(q.text), retriever.load(view)]);
  const cosines = resident.cosines(vector, visible.chunks);
  const cosine = new Float32Array(resident.size);
  visible.chunks.forEach((c, j) => (cosine[c] = cosines[j]));
  const lexical = settings.lexical ? await lexicalScores(retriever, resident, visible, q, settings) : new Map<number, number>();
  const pool = new Map<number, Candidate>();
  const add = (index: number) => {
    let c = pool.get(index);
    if (!c) {
      const chunk = resident.info[index];
      pool.set(index, (c = { index, chunk, cosine: cosine[index], bm25: lexical.get(index) ?? 0, denseRank: -1, lexicalRank: -1, files: view.byBlob.get(chunk.blob)! }));
    }
    return c;
  };
  if (settings.dense) {
    const order = topEntries(
      (function* () {
        for (let j = 0; j < cosines.length; j++) yield [visible.chunks[j], cosines[j]] as [number, number];
      })(),
      settings.perSource,
    );
    order.forEach(([index], rank) => (add(index).denseRank = rank));
  }
  topEntries(lexical, settings.perSource).forEach(([index], rank) => (add(index).lexicalRank = rank));
  // The symbol table: every visible definition of a name the query gives, however the retrievers ranked it.
  const defined = new Set<string>();
  for (const name of q.symbols) {
    for (const index of resident.definitionsOf(name)) {
      if (!visible.mask[index]) continue;
      defined.add(name);
      if (settings.symbols) add(index);
    }
  }
  return { pool, resident, visible, cosine, lexical, defined };
}

async function lexicalScores(retriever: Retriever, resident: ResidentChunks, visible: VisibleChunks, q: QueryInfo, settings: CandidateSettings): Promise<Map<number, number>> {
  if (settings.lexicalEngine === 'bm25' || !retriever.fts) return bm25(resident, visible, q.terms, { k1: settings.bm25K1, b: settings.bm25B });
  // The store's index ranks over every branch's chunks: widen the window until enough visible ones come back.
  const ids = resident.idIndex();
  const out = new Map<number, number>();
  for (let limit = settings.perSource * 2; ; limit *= 4) {
    const rows = await retriever.fts(q.terms.join(' '), limit);
    out.clear();
    for (const r of rows) {
      const index = ids.get(r.id);
      if (index !== undefined && visible.mask[index]) out.set(index, r.score);
    }
    if (out.size >= settings.perSource || rows.length < limit) return out;
  }
}
