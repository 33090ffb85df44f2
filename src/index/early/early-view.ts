import { chunkerVersion } from '../../chunk/version.js';
import type { Embedder } from '../../embed/index.js';
import { grepWordCounts } from '../../git/grep.js';
import { listTree, type TreeEntry } from '../../git/tree.js';
import { retrieveResident, type Retriever } from '../../search/candidates.js';
import { analyzeQuery } from '../../search/query.js';
import { ResidentChunks } from '../../search/resident.js';
import { searchView } from '../../search/view.js';
import type { BlobState } from '../../store/blob-state.js';
import type { Manifest } from '../../store/manifest.js';
import { readMeta, STORE_FORMAT } from '../../store/meta.js';
import { storeExists } from '../../store/open-store.js';
import { StoreHandle } from '../../store/store-handle.js';
import { hasCjk } from '../../text/scripts.js';
import { loadZhLexicon } from '../../text/zh-lexicon.js';
import { buildManifest } from '../build-manifest.js';
import type { IndexContext } from '../index-context.js';
import { requireHead } from '../manifest-state.js';
import { selectFiles } from '../select.js';
import { grepWords, rankFiles } from './candidate-files.js';
import { embedFiles, type EmbeddedFiles } from './embed-files.js';

/**
 * Files chunked and embedded for an early answer, the best by their words, up to this many and this many bytes
 * (chunking and embedding cost goes by bytes). On tokio (bench/early-answer.ts) the final top 10's files are among
 * the best 40 8.8 times in 10, the best 20 6.9; with 40 files and no byte budget the early top 10 held 8.4 of the
 * final one's (30 files: 7.3, lowest 5); 40 files within 512 KB (~1,000 chunks, 9% of the tree) 8.0, lowest 6;
 * 300 KB 7.2, lowest 5.
 */
export const EARLY_FILES = 40;
export const EARLY_BYTES = 512 * 1024;

/**
 * What a search of HEAD can use before its index exists: the chunks the store holds already (an index run under
 * way, an earlier early answer), and the files that best match the question's words, chunked and embedded now.
 */
export interface EarlyView {
  /** HEAD's selected files whose chunks are at hand (the others are not searched yet). */
  manifest: Manifest;
  retriever: Retriever;
  /** What was embedded for this answer, for the store (see storeEarlyChunks). */
  embedded: EmbeddedFiles;
  /** Files searched, and HEAD's selected files in all. */
  searched: number;
  total: number;
}

/**
 * HEAD's early view for one question (of the files under `pathGlob`, when given), or null when an early answer
 * would not be quicker than the index itself (HEAD selects no more files than an early answer embeds) or has
 * nothing to go on (no file holds any of the question's words). The store is read when it is there, never written.
 */
export async function earlyView(ctx: IndexContext, embedder: Embedder, query: string, opts: { pathGlob?: string; files?: number; maxBytes?: number } = {}): Promise<EarlyView | null> {
  const files = opts.files ?? EARLY_FILES;
  const maxBytes = opts.maxBytes ?? EARLY_BYTES;
  const { commit, tree } = requireHead(ctx.head);
  const entries = await listTree(ctx.repo.root, tree);
  // A grep over a partial clone's tree reads the blobs it lacks too: it fails (no network at run time), so none.
  if (entries.some((e) => e.kind === 'unfetched')) return null;
  const selection = selectFiles(entries, ctx.config);
  if (selection.files.length <= files) return null;
  const manifestOf = (held: TreeEntry[], known: ReadonlyMap<string, BlobState>) => buildManifest(ctx, ctx.head.branch, commit, tree, embedder.modelId, { files: held, skipped: selection.skipped }, known);
  const inGlob = opts.pathGlob ? new Set(searchView(manifestOf(selection.files, new Map()), opts.pathGlob).files.map((f) => f.path)) : null;
  const q = analyzeQuery(query, hasCjk(query) ? await loadZhLexicon().catch(() => undefined) : undefined);
  const words = grepWords(q);
  const store = openedStore(ctx, embedder);
  try {
    const [counts, known] = await Promise.all([grepWordCounts(ctx.repo.root, tree, words), store ? storedBlobs(store, selection.files) : new Map<string, BlobState>()]);
    const ranked = rankFiles(inGlob ? selection.files.filter((f) => inGlob.has(f.path)) : selection.files, counts, words);
    if (!ranked.length) return null;
    const wanted = new Set<string>();
    const toEmbed: { path: string; blob: string }[] = [];
    let bytes = 0;
    for (const f of ranked) {
      if (wanted.size >= files || bytes >= maxBytes) break;
      if (wanted.has(f.blob)) continue;
      wanted.add(f.blob);
      bytes += f.size;
      if (!known.has(f.blob)) toEmbed.push({ path: f.path, blob: f.blob });
    }
    const embedded = await embedFiles(ctx.repo.root, embedder, toEmbed, ctx.config.maxLineChars);
    const resident = new ResidentChunks(embedder.dim);
    const stored = [...known].filter(([, state]) => state === 'chunks').map(([blob]) => blob);
    if (store && stored.length) await resident.ensure(store, stored);
    resident.addRows(embedded.rows);
    for (const r of embedded.rows) known.set(r.blob, 'chunks');
    for (const m of embedded.marks) known.set(m.blob, m.reason);
    const held = selection.files.filter((f) => known.has(f.blob));
    const retriever: Retriever = { embed: (text) => embedder.embedQuery(text), chunks: async (view, q, settings) => retrieveResident(resident, view, q, settings) };
    return { manifest: manifestOf(held, known), retriever, embedded, searched: held.length, total: selection.files.length };
  } finally {
    store?.close();
  }
}

/** The store when one of this model is there (an index run under way made it), else null. */
function openedStore(ctx: IndexContext, embedder: Embedder): StoreHandle | null {
  const meta = readMeta(ctx.layout.meta);
  if (!meta || meta.modelId !== embedder.modelId || meta.dim !== embedder.dim || meta.chunkerVersion !== chunkerVersion() || meta.format !== STORE_FORMAT || !storeExists(ctx.layout)) return null;
  return new StoreHandle(ctx.layout, meta.dim, meta.createdAt);
}

/** What the store knows of HEAD's blobs: those already indexed need no embedding, and are searched as they are. */
async function storedBlobs(store: StoreHandle, files: { blob: string }[]): Promise<Map<string, BlobState>> {
  try {
    return await (await store.get()).blobState(new Set(files.map((f) => f.blob)));
  } catch {
    // A store being made by a run that has not written its tables yet: nothing indexed so far.
    return new Map();
  }
}
