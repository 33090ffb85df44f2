import fs from 'node:fs';
import type { Embedder } from '../embed/index.js';
import type { ChunkInfo } from '../store/contract.js';
import type { IndexLayout } from '../store/layout.js';
import type { StoreHandle } from '../store/store-handle.js';
import { isLargeStore } from '../store/large-store.js';
import { hasCjk } from '../text/scripts.js';
import { localeBridge, localeTables } from './locale-bridge.js';
import { bm25, topEntries, topOfLists, visibleChunks, type VisibleChunks } from './lexical.js';
import type { QueryInfo } from './query.js';
import { ResidentChunks, type HeldChunks } from './resident.js';
import { residentFor, snapshotFileFor } from './resident-registry.js';
import { SectionDamageError } from './sectioned-file.js';
import { spelledDefinitions, type SpelledDefinitions } from './spelled-names.js';
import { fromStoreIndexes } from './store-candidates.js';
import { fitsInMemory } from './view-budget.js';
import type { SearchView, ViewFile } from './view.js';

/** What ranking may look at for one query: chunks in memory, which of them are visible, and their word scores. */
export interface RetrievedChunks {
  resident: ResidentChunks;
  visible: VisibleChunks;
  /** Lexical score per resident index, for the chunks that matched words. */
  lexical: Map<number, number>;
}

/** What search needs from an index: the query's vector, and the chunks to rank. */
export interface Retriever {
  embed(query: string): Promise<Float32Array>;
  chunks(view: SearchView, q: QueryInfo, settings: CandidateSettings, vector: Promise<Float32Array>): Promise<RetrievedChunks>;
  /** After a search failed with `e`: starts afresh from what failed and says so (the search is then run once more), or false. */
  recover?(e: unknown): boolean;
}

/**
 * Searches a view in memory (exact, every ranking signal) while its chunks fit the budget (view-budget.ts), and a
 * larger one through the store's indexes (`queryIndexes`, see store/contract.ts).
 */
export function storeRetriever(store: StoreHandle, embedder: Embedder): Retriever {
  const vectors = new Map<string, Promise<Float32Array>>();
  const embed = (query: string) => {
    if (!vectors.has(query)) vectors.set(query, embedder.embedQuery(query));
    return vectors.get(query)!;
  };
  let resident = residentOf(store, embedder.modelId);
  return {
    embed,
    // A text of the restored snapshot failed its checksum (read lazily, so only now): a new set, built from the store.
    recover(e) {
      if (!(e instanceof SectionDamageError)) return false;
      resident.discard();
      resident = residentOf(store, embedder.modelId);
      return true;
    },
    async chunks(view, q, settings, vector) {
      if (!(await fitsInMemory(store, resident, view, view.byBlob.keys()))) return fromStoreIndexes(store, view, q, settings, vector);
      await resident.ensure(store, view.byBlob.keys());
      if (settings.lexical && settings.lexicalEngine === 'fts') {
        const visible = visibleChunks(resident, resident.chunksOf(view, view.byBlob.keys()));
        return { resident, visible, lexical: await storeTextScores(store, resident, visible, q, settings) };
      }
      return retrieveResident(resident, view, q, settings);
    },
  };
}

/**
 * Searches a view whose every chunk this resident set holds, with the resident BM25 (a set restored from a
 * published search-ready set, see index/remote-first.ts, has no store to ask).
 */
export function retrieveResident(resident: ResidentChunks, view: SearchView, q: QueryInfo, settings: CandidateSettings): RetrievedChunks {
  const visible = visibleChunks(resident, resident.chunksOf(view, view.byBlob.keys()));
  if (!settings.lexical) return { resident, visible, lexical: new Map() };
  const params = { k1: settings.bm25K1, b: lengthNormalisation(q, settings) };
  const lexical = bm25(resident, visible, q.terms, params, q.termWeights);
  const bridge = settings.localeBridge > 0 && !q.isName && !q.long && hasCjk(q.text) ? localeBridge(localeTables(resident, view), q.text, q.terms, settings.localeBridge) : null;
  // The tables themselves hold the keys and the English: only the code that uses them gains.
  if (bridge) for (const [d, s] of bm25(resident, visible, bridge.words, params, bridge.weights)) if (!bridge.tableBlobs.has(resident.info[d]!.blob)) lexical.set(d, (lexical.get(d) ?? 0) + s);
  return { resident, visible, lexical };
}

/** BM25's length normalisation for this query: a pasted report's has its own (rank/config.ts). */
export function lengthNormalisation(q: QueryInfo, settings: Pick<CandidateSettings, 'bm25B' | 'bm25BLong'>): number {
  return q.long ? settings.bm25BLong : settings.bm25B;
}

/**
 * Restores the store's in-memory set from its snapshot now, where every search of this store is answered in memory
 * (no search indexes, view-budget.ts): a one-shot search does it while git reads the work tree (9-20 ms of tokio's
 * restore no longer wait on git's 8 ms). A large store decides by the view first, which may not need the set.
 */
export function restoreSearchSet(store: StoreHandle, embedder: Pick<Embedder, 'modelId'>): void {
  if (!isLargeStore(store.layout)) residentOf(store, embedder.modelId).restoreSnapshot();
}

function residentOf(store: StoreHandle, modelId: string): ResidentChunks {
  return residentFor(residentKey(store.layout, modelId, store.generation), store.dim, store.layout.resident);
}

/** Names a store incarnation's resident set (and so its snapshot file): the tables, the model, the store's generation. */
function residentKey(layout: Pick<IndexLayout, 'tables'>, modelId: string, generation: string): string {
  return `${layout.tables}\n${modelId}\n${generation}`;
}

/** The snapshot file a one-shot search of this store restores its resident set from (placed by a read-through). */
export function residentSnapshotFile(layout: Pick<IndexLayout, 'tables' | 'resident'>, modelId: string, generation: string): string {
  return snapshotFileFor(residentKey(layout, modelId, generation), layout.resident);
}

/**
 * Writes to `file` the snapshot of exactly these blobs' chunks, as a search of that tree would restore it (a
 * publish hands it to every clone), and returns how many chunks it holds; null when the tree is too large to be
 * searched in memory. The chunks `held` has (a rebuild's, in hand) are taken from it, the rest read from the store.
 */
export async function writeTreeSnapshot(store: StoreHandle, blobs: Set<string>, file: string, held?: () => Promise<HeldChunks>): Promise<number | null> {
  const set = new ResidentChunks(store.dim);
  if (!(await fitsInMemory(store, set, blobs, blobs))) return null;
  set.snapshotFile = file;
  await set.ensure(store, blobs, held);
  return set.size;
}

/**
 * After an index run: brings the snapshot a one-shot search restores up to date with these blobs (the tree just
 * indexed) and the tree is searched in memory, so a search after a commit finds every chunk in the snapshot and
 * never opens LanceDB. The chunks the run has in hand (`held`) are taken from it, not read back from the store,
 * and with them the snapshot is built when there is none (a first index); without them, a store never searched
 * in memory gets none (its first such search builds it) unless `build`. What is read from the store is checked
 * as a search checks it: a damaged row throws StoreDamageError.
 */
export async function keepSnapshotCurrent(store: StoreHandle, modelId: string, blobs: Iterable<string>, build: boolean | (() => Promise<HeldChunks>) = false): Promise<void> {
  const resident = residentOf(store, modelId);
  if (!resident.snapshotFile || (!build && !fs.existsSync(resident.snapshotFile))) return;
  const tree = new Set(blobs);
  const held = typeof build === 'function' ? once(build) : undefined;
  if (held && (await resident.appendHeld(tree, held))) return;
  if (await fitsInMemory(store, resident, tree, tree)) await resident.ensure(store, tree, held);
}

/** After an index run whose commit is searchable: the snapshot written whole once its segments are due (ResidentChunks.compactSegments). */
export function compactSnapshot(store: StoreHandle, modelId: string): Promise<void> {
  return residentOf(store, modelId).compactSegments();
}

/** LanceDB's full-text search over the view's chunks, kept to measure against the resident BM25. */
async function storeTextScores(store: StoreHandle, resident: ResidentChunks, visible: VisibleChunks, q: QueryInfo, settings: CandidateSettings): Promise<Map<number, number>> {
  // The store's index ranks over every branch's chunks: widen the window until enough visible ones come back.
  const ids = resident.idIndex();
  const out = new Map<number, number>();
  for (let limit = settings.perSource * 2; ; limit *= 4) {
    const rows = await (await store.get()).lexical(q.terms.join(' '), limit);
    out.clear();
    for (const r of rows) {
      const index = ids.get(r.id);
      if (index !== undefined && visible.mask[index]) out.set(index, r.score);
    }
    if (out.size >= settings.perSource || rows.length < limit) return out;
  }
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
  bm25BLong: number;
  symbols: boolean;
  spelledNames: boolean;
  localeBridge: number;
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
  /** Visible definitions of names the query spells as words (`JSON element` → `JsonElement`). */
  spelled: SpelledDefinitions;
}

/** The best chunks by meaning and by words among exactly the view's chunks, each carrying both scores. */
export async function gatherCandidates(retriever: Retriever, view: SearchView, q: QueryInfo, settings: CandidateSettings): Promise<CandidatePool> {
  const embedding = retriever.embed(q.embedText);
  const [vector, { resident, visible, lexical }] = await Promise.all([embedding, retriever.chunks(view, q, settings, embedding)]);
  const cosines = resident.cosines(vector, visible.chunks);
  const cosine = new Float32Array(resident.size);
  const chunks = visible.chunks;
  for (let j = 0; j < chunks.length; j++) cosine[chunks[j]] = cosines[j];
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
    const order = topOfLists(visible.chunks, cosines, settings.perSource);
    order.forEach(([index], rank) => (add(index).denseRank = rank));
  }
  topEntries(lexical, settings.perSource).forEach(([index], rank) => (add(index).lexicalRank = rank));
  // The symbol table: every visible definition of a name the query gives, however the retrievers ranked it, and
  // the members of the view's definitions (a method of a class kept whole), which only it brings in.
  const defined = new Set<string>();
  for (const name of q.symbols) {
    for (const index of resident.definitionsOf(name)) {
      const member = !visible.mask[index] && resident.isMember(index) && view.byBlob.has(resident.info[index].blob);
      if (!visible.mask[index] && !member) continue;
      defined.add(name);
      if (!settings.symbols) continue;
      if (member) cosine[index] = resident.cosines(vector, Int32Array.of(index))[0];
      add(index);
    }
  }
  // Names the query spells as words: their definitions are candidates too, however the retrievers ranked them.
  const spelled = spelledDefinitions(resident, visible.mask, settings.spelledNames ? q.spelledNames : []);
  for (const index of spelled.chunks) add(index);
  return { pool, resident, visible, cosine, lexical, defined, spelled };
}

/** Calls `f` once, however often it is asked. */
function once<T>(f: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= f());
}
