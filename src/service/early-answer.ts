import type { Embedder } from '../embed/index.js';
import type { IndexContext } from '../index/index-context.js';
import { searchManifest, type SearchOptions, type SearchResult } from '../search/search.js';
import { listManifests } from '../store/manifest.js';
import { readSources } from '../store/sources.js';
import type { CodeIndexHooks, ViewOptions } from './code-index-options.js';
import { identityWith } from '../index/identity-with.js';

/** How far an early answer looked: the files searched of HEAD's files; what it embedded, to keep (`store`). */
export interface EarlyAnswer {
  results: SearchResult[];
  searched: number;
  total: number;
  /** Stores the chunks embedded for this answer, so the index run that follows does not embed them again. */
  store(onNotice?: (message: string) => void): Promise<boolean>;
  /** Writes what was chunked and embedded for the index run a one-shot search starts (index/early/hand-off.ts): its digest, or null. */
  handOff(): Promise<string | null>;
}

/**
 * A fresh clone's answer before its index exists (index/early/): from what the store holds already and the files
 * that best match the question's words, chunked and embedded now. Null whenever that does not apply (the search
 * then indexes first, as always): the view asked for is more than HEAD as committed (uncommitted edits, added
 * sources), HEAD was ever indexed here (a branch's catch-up is quick), this is a plain folder, or HEAD is small
 * enough to index at once.
 */
export async function earlyAnswer(ctx: IndexContext, opts: SearchOptions & ViewOptions, model: () => Promise<Embedder>, query: string): Promise<EarlyAnswer | null> {
  if (opts.update === false || !ctx.head.commit || !neverIndexed(ctx)) return null;
  if (opts.sources !== false && readSources(ctx.layout.sources).length) return null;
  const changes = opts.committedOnly ? null : ctx.kind.workingChanges(ctx);
  changes?.catch(() => undefined);
  // Loaded only here: a search of an indexed clone never needs them.
  const [{ earlyView }, embedder] = await Promise.all([import('../index/early/early-view.js'), model()]);
  if ((await changes)?.length) return null;
  const view = await earlyView(ctx, embedder, query, { pathGlob: opts.pathGlob });
  if (!view) return null;
  const results = await searchManifest(view.manifest, view.retriever, query, opts);
  const store = async (onNotice?: (message: string) => void) => (await import('../index/early/store-early.js')).storeEarlyChunks(ctx, embedder, view.embedded, onNotice);
  const identity = { ...identityWith(embedder), maxLineChars: ctx.config.maxLineChars };
  const handOff = async () => (await import('../index/early/hand-off.js')).writeHandOff(ctx.layout, identity, view.embedded);
  return { results, searched: view.searched, total: view.total, store, handOff };
}

/** A git work tree none of whose commits was ever indexed here: the only place an early answer applies. */
export function neverIndexed(ctx: IndexContext): boolean {
  return ctx.kind.match({ git: () => true, folder: () => false }) && listManifests(ctx.layout.manifests).length === 0;
}

/** What a caller learns of an answer that is partial (the CLI's `--json` says it). */
export interface PartialAnswer {
  searched: number;
  total: number;
  notice: string;
}

/** What the answer says of itself: partial, and why; the caller adds how to learn when the index is done. */
export function earlyNotice(answer: Pick<EarlyAnswer, 'searched' | 'total'>): string {
  return `partial answer: the index is still being built, so this searched ${answer.searched} of ${answer.total} files (those indexed so far and those holding the question's words)`;
}

/**
 * For a one-shot process (the CLI): says the answer is partial (`onNotice`, `onPartial`); once it is given, the
 * index run of HEAD starts in the background. What the answer embedded is not stored first (creating the store
 * and writing it would keep the agent waiting ~2 s longer for this answer): it is handed to the run in a file
 * (~2.5 MB on tokio, written in milliseconds), which then neither chunks nor embeds those ~1,000 chunks again.
 */
export function goOnInBackground(early: EarlyAnswer, root: string, hooks: Pick<CodeIndexHooks, 'onNotice' | 'startBackgroundIndex'>, onPartial?: (partial: PartialAnswer) => void): Promise<void> {
  const notice = `${earlyNotice(early)}; indexing goes on in the background: search again once it is done ("ocrag status" shows it)`;
  hooks.onNotice?.(`ocrag: ${notice}`);
  onPartial?.({ searched: early.searched, total: early.total, notice });
  return early
    .handOff()
    .catch(() => null)
    .then((handOff) => hooks.startBackgroundIndex?.(root, handOff ?? undefined));
}
