import type { Manifest } from '../store/manifest.js';
import { addBlobs, gatherCandidates, type Retriever } from './candidates.js';
import { fuse } from './fusion.js';
import { analyzeQuery, type QueryInfo } from './query.js';
import { DEFAULT_RANKING, type RankingConfig } from './rank/config.js';
import { pathMatch, stemNamesSymbol } from './rank/path-words.js';
import { scoreHits } from './rank/rank.js';
import { boostCoherentFiles, selectTop } from './rank/select.js';
import { searchView, type SearchView } from './view.js';

export { storeRetriever, type Retriever } from './candidates.js';

/** One answer: a chunk at one path of the checked-out tree. */
export interface SearchResult {
  path: string;
  startLine: number;
  endLine: number;
  language: string;
  symbol: string;
  score: number;
  text: string;
}

export interface SearchOptions {
  k: number;
  /** Only paths matching this glob (matched against the whole path from the repository root). */
  pathGlob?: string;
  /** Drop results scoring below this (relevance 0..1, see `relevance`). */
  minScore?: number;
  /** Ranking switches, for measuring components (the benchmark's ablation); defaults are the tuned stack. */
  ranking?: Partial<RankingConfig>;
}

/** Files pulled in by their path words alone, at most this many per query. */
const PULL_IN_FILES = 3;

/**
 * Answers a query for exactly the tree a manifest describes: candidates from the shared store are kept only
 * when their blob is in the manifest (and its path matches the glob), and are shown at the manifest's paths.
 */
export async function searchManifest(manifest: Manifest, retriever: Retriever, query: string, opts: SearchOptions): Promise<SearchResult[]> {
  const cfg: RankingConfig = { ...DEFAULT_RANKING, ...opts.ranking };
  const view = searchView(manifest, opts.pathGlob);
  if (!view.files.length) return [];
  const q = analyzeQuery(query);
  const { vector, pool } = await gatherCandidates(retriever, view, q, cfg);
  if (cfg.pullIn) await addBlobs(retriever, view, vector, pool, pullInBlobs(view, q, cfg));
  const hits = scoreHits(fuse(pool.values(), q, cfg), q, cfg);
  if (cfg.coherence) boostCoherentFiles(hits, cfg);
  const minScore = opts.minScore ?? -Infinity;
  return selectTop(hits, opts.k, cfg)
    .map((h) => ({
      path: h.file.path,
      startLine: h.candidate.chunk.startLine,
      endLine: h.candidate.chunk.endLine,
      language: h.candidate.chunk.language,
      symbol: h.candidate.chunk.symbol,
      score: relevance(h.score),
      text: h.candidate.chunk.text,
    }))
    .filter((r) => r.score >= minScore);
}

/** Files singled out by the query itself: named after a queried name, or matching most of its words by path. */
function pullInBlobs(view: SearchView, q: QueryInfo, cfg: RankingConfig): string[] {
  if (q.isName) return cfg.definitions ? view.files.filter((f) => q.symbols.some((s) => stemNamesSymbol(f, s))).map((f) => f.blob) : [];
  if (!cfg.pathWords) return [];
  const scored = view.files.map((f) => ({ f, m: pathMatch(q.keywords, f) })).filter((x) => x.m >= 0.5);
  return scored.sort((a, b) => b.m - a.m).slice(0, PULL_IN_FILES).map((x) => x.f.blob);
}

/**
 * The score shown to users, 0..1 and monotonic in the ranking score: fused relevance is 0..1 and the boosts add
 * up to a few units, so this squashes rather than clips, keeping the order of results and a stable scale for
 * `--min-score`.
 */
export function relevance(score: number): number {
  return score <= 0 ? 0 : 1 - Math.exp(-score);
}
