import { pathFields } from '../git/path-key.js';
import type { Manifest } from '../store/manifest.js';
import { gatherCandidates, type Retriever } from './candidates.js';
import { fuse } from './fusion.js';
import { hasCjk } from '../text/scripts.js';
import { loadZhLexicon, type ZhLexicon } from '../text/zh-lexicon.js';
import { excerpt, type LineSpan } from './excerpt.js';
import { analyzeQuery, type QueryInfo } from './query.js';
import { DEFAULT_RANKING, type RankingConfig } from './rank/config.js';
import type { Hit } from './rank/hit.js';
import { rescoreHits, scoreHits } from './rank/rank.js';
import { rerankHits, type Reranker } from './rank/rerank.js';
import { hasGoodMatch } from './relevance.js';
import { matchEvidence, NO_EVIDENCE, type MatchEvidence } from './match-evidence.js';
import { selectTop } from './rank/select.js';
import { inLanguage, languageFetchCount } from './language.js';
import { searchView } from './view.js';
import { checkLanguageInView, checkLanguageName, noFileMatches } from './filters.js';

export { compactSnapshot, keepSnapshotCurrent, restoreSearchSet, storeRetriever, type Retriever } from './candidates.js';

/** One answer: a chunk at one path of the checked-out tree. */
export interface SearchResult {
  /** The file's path as people read it (a byte that is not UTF-8, or a control character, shown as U+FFFD). */
  path: string;
  /** Present when `path` alone is not the file's exact name: that name in git's quoted form, `"caf\351.py"` (`path-key.ts`). */
  quotedPath?: string;
  startLine: number;
  endLine: number;
  language: string;
  symbol: string;
  score: number;
  /** The chunk's lines startLine..endLine, or for a long chunk its part that answers, with a marker line per cut. */
  text: string;
  /** Present when `text` is cut: the lines it shows. */
  shown?: LineSpan[];
  /** For a file of a source (`ocrag add`): the source's name and where the file is on disk. */
  source?: string;
  absolutePath?: string;
  /** As `quotedPath`, for `absolutePath`. */
  quotedAbsolutePath?: string;
}

export interface SearchOptions {
  k: number;
  /** Only paths matching this glob (matched against the whole path from the repository root, as `path` shows it). */
  pathGlob?: string;
  /** Drop results scoring below this (relevance 0..1, see `relevance`). */
  minScore?: number;
  /** Answer nothing when no hit is a real match (see `hasGoodMatch` in relevance.ts); 0 or absent keeps every answer. */
  minMatch?: number;
  /** Ranking switches, for measuring components (the benchmark's ablation); defaults are the tuned stack. */
  ranking?: Partial<RankingConfig>;
  /** Each result's whole chunk, not the part of a long one that answers (see `excerpt`). */
  whole?: boolean;
  /** A stage after the signals that reads the best hits again (rank/rerank.ts); none by default. */
  reranker?: Reranker;
  /** Only chunks in this language, as agents name it ("ts", "golang"; see language.ts). */
  language?: string;
  /** Where a one-line notice goes (the Chinese lexicon missing); none: nothing is said. */
  onNotice?: (message: string) => void;
}

/**
 * Answers a query for exactly the tree a manifest describes: candidates from the shared store are kept only
 * when their blob is in the manifest (and its path matches the glob), and are shown at the manifest's paths.
 */
export async function searchManifest(manifest: Manifest, retriever: Retriever, query: string, opts: SearchOptions): Promise<SearchResult[]> {
  if (opts.language !== undefined) checkLanguageName(opts.language);
  const minScore = opts.minScore ?? -Infinity;
  const k = opts.language === undefined ? opts.k : languageFetchCount(opts.k);
  const answer = await recovering(retriever, async () => {
    const { q, hits, evidence } = await rank(manifest, retriever, query, { ...opts, k });
    if (!hasGoodMatch(evidence, opts.minMatch ?? 0)) return [];
    const results = hits
      .map((h) => {
        const { chunk } = h.candidate;
        const shown = opts.whole ? { text: chunk.text } : excerpt(chunk.text, chunk.startLine, chunk.symbol, q);
        return { ...pathFields(h.file.path), startLine: chunk.startLine, endLine: chunk.endLine, language: chunk.language, symbol: chunk.symbol, score: relevance(h.score), ...shown };
      })
      .filter((r) => r.score >= minScore);
    return inLanguage(results, opts.language, opts.k);
  });
  // Nothing in that language: said as such when no file of the view could be in it (filters.ts).
  if (!answer.length && opts.language !== undefined) checkLanguageInView(opts.language, searchView(manifest, opts.pathGlob), opts.pathGlob);
  return answer;
}

/** The k best hits with what each ranking signal (`rank/signals/index.ts`) contributed (search results are made from these). */
export async function rankHits(manifest: Manifest, retriever: Retriever, query: string, opts: SearchOptions): Promise<Hit[]> {
  return recovering(retriever, async () => (await rank(manifest, retriever, query, opts)).hits);
}

/** The k best hits with what the relevance rule reads of them (bench/off-topic/collect.ts records them to choose its constants). */
export async function rankWithEvidence(manifest: Manifest, retriever: Retriever, query: string, opts: SearchOptions): Promise<{ hits: Hit[]; evidence: MatchEvidence }> {
  return recovering(retriever, async () => rank(manifest, retriever, query, opts));
}

/** Runs a search once more when it failed on something its retriever can start afresh from (a damaged snapshot). */
async function recovering<T>(retriever: Retriever, search: () => Promise<T>): Promise<T> {
  try {
    return await search();
  } catch (e) {
    if (!retriever.recover?.(e)) throw e;
    return search();
  }
}

async function rank(manifest: Manifest, retriever: Retriever, query: string, opts: SearchOptions): Promise<{ q: QueryInfo; hits: Hit[]; evidence: MatchEvidence }> {
  const cfg: RankingConfig = { ...DEFAULT_RANKING, ...opts.ranking };
  const view = searchView(manifest, opts.pathGlob);
  if (!view.files.length && opts.pathGlob) throw noFileMatches(opts.pathGlob, searchView(manifest));
  if (!view.files.length) return { q: analyzeQuery(query), hits: [], evidence: NO_EVIDENCE };
  const q = analyzeQuery(query, hasCjk(query) ? await chineseLexicon(opts.onNotice) : undefined, { longQueries: cfg.longQueries });
  const candidates = await gatherCandidates(retriever, view, q, cfg);
  const hits = scoreHits(fuse(candidates.pool.values(), q, cfg), { q, cfg, view, candidates });
  rescoreHits(hits, cfg);
  const reranked = opts.reranker ? await rerankHits(hits, query, opts.reranker) : hits;
  const top = selectTop(reranked, opts.k, cfg);
  return { q, hits: top, evidence: matchEvidence(candidates, q, top) };
}

let lexiconFailureSaid = false;

/** Without its lexicon (its data packages missing), Chinese still matches by its bigrams: said once, no failure. */
async function chineseLexicon(onNotice?: (message: string) => void): Promise<ZhLexicon | undefined> {
  try {
    return await loadZhLexicon();
  } catch (e) {
    if (!lexiconFailureSaid && onNotice) {
      lexiconFailureSaid = true;
      onNotice(`ocrag: Chinese is matched by characters only: the Chinese lexicon could not be built (${e instanceof Error ? e.message : String(e)})`);
    }
    return undefined;
  }
}

/**
 * The score shown to users, 0..1 and monotonic in the ranking score: fused relevance is 0..1 and the boosts add
 * up to a few units, so this squashes rather than clips, keeping the order of results and a stable scale for
 * `--min-score`.
 */
export function relevance(score: number): number {
  return score <= 0 ? 0 : 1 - Math.exp(-score);
}
