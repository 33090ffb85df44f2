import type { Embedder } from '../embed/index.js';
import type { IndexContext } from '../index/index-context.js';
import { searchManifest, type SearchOptions, type SearchResult } from '../search/search.js';
import type { CodeIndexHooks, ViewOptions } from './code-index-options.js';
import { earlyAnswer, goOnInBackground, type PartialAnswer } from './early-answer.js';
import { remoteFirstAnswer } from './remote-first-answer.js';

/** An answer given before this clone has an index, and the work it leaves for before the process ends. */
export interface AnswerBeforeIndex {
  results: SearchResult[];
  /** The early answer's chunks stored and the rest indexed in the background (`CodeIndex.close` waits for it). */
  after: Promise<void>;
}

/**
 * A one-shot search's answer when this clone has no index yet and a background run can build it
 * (`startBackgroundIndex`): the team's published set for HEAD (remote-first-answer.ts), else a partial answer
 * from the files the question's words hit (early-answer.ts). Null when neither applies: the search indexes first.
 */
export async function answerBeforeIndex(
  ctx: IndexContext,
  query: string,
  opts: SearchOptions & ViewOptions & { onPartial?: (partial: PartialAnswer) => void },
  model: () => Promise<Embedder>,
  hooks: Pick<CodeIndexHooks, 'onNotice' | 'startBackgroundIndex'>,
): Promise<AnswerBeforeIndex | null> {
  const start = hooks.startBackgroundIndex;
  if (!start) return null;
  const first = await remoteFirstAnswer(ctx, opts, model, start, hooks.onNotice);
  if (first) return { results: await searchManifest(first.manifest, first.retriever, query, opts), after: Promise.resolve() };
  const early = await earlyAnswer(ctx, opts, model, query);
  // Said now; once it is given (`close` waits), its chunks are handed to the background run, which indexes the rest.
  return early && { results: early.results, after: goOnInBackground(early, ctx.repo.root, hooks, opts.onPartial) };
}
