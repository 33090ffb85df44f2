import type { SearchOptions, SearchResult } from '../search/search.js';
import { checkSourceName, type SourceSpec } from '../store/sources.js';
import { OcragError } from '../util/errors.js';
import type { IndexContext } from '../index/index-context.js';
import type { CodeIndex, ViewOptions } from './code-index.js';
import { listSources } from './sources.js';
import type { PartialAnswer } from './early-answer.js';

/** Results a search gives when the caller names no k. */
export const DEFAULT_K = 10;

/** A query: what search_code and `ocrag search` take. */
export interface SearchQuery extends Omit<SearchOptions, 'k'>, ViewOptions {
  k?: number;
  /** Only files of this added source (`ocrag add`); `pathGlob` then matches paths inside it. */
  source?: string;
  /** Told when the answer is partial: a fresh clone's, given while its first index is built in the background. */
  onPartial?: (partial: PartialAnswer) => void;
}

/**
 * A search as `ocrag search` asks it: the source named checked, its glob taken inside the source. One function,
 * so the CLI's own answer and the one a running server gives it (session/warm/) are the same answer.
 */
export async function searchAsAsked(index: CodeIndex, query: string, opts: SearchQuery): Promise<SearchResult[]> {
  return index.search(query, askedOptions(index.ctx, opts));
}

/** The options a search is run with: the source named checked, its glob taken inside it, k defaulted. */
export function askedOptions(ctx: IndexContext, opts: SearchQuery): SearchOptions & ViewOptions {
  if (opts.source && opts.sources === false) throw new OcragError('--source searches a source and --no-sources leaves them out: use one');
  if (opts.source) checkSourceKnown(opts.source, listSources(ctx));
  const pathGlob = opts.source ? `${opts.source}:${opts.pathGlob ?? '**'}` : opts.pathGlob;
  return { ...opts, k: opts.k ?? DEFAULT_K, pathGlob };
}

/**
 * Whether a long-lived session's live view (session/live-view.ts) is this search's view: the tree as it is now
 * with no source added (a source's results carry where its file is on disk, which only a fresh view knows).
 */
export function searchesLiveView(ctx: IndexContext, opts: SearchQuery): boolean {
  return opts.update !== false && !opts.committedOnly && opts.source === undefined && listSources(ctx).length === 0;
}

/** A source to search must be one added: any other name would answer nothing, as if nothing matched. */
function checkSourceKnown(name: string, sources: SourceSpec[]): void {
  checkSourceName(name);
  if (sources.some((s) => s.name === name)) return;
  // Worded as `ocrag remove` words it (service/sources.ts).
  throw new OcragError(`no source "${name}" to search${sources.length ? ` (sources: ${sources.map((s) => s.name).join(', ')})` : ': none was added (ocrag add adds one)'}`);
}
