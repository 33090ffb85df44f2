import type { Embedder } from '../embed/index.js';
import type { IndexContext } from '../index/index-context.js';
import { searchManifest, type SearchOptions, type SearchResult } from '../search/search.js';
import { listManifests } from '../store/manifest.js';
import { readSources } from '../store/sources.js';
import type { CodeIndexHooks, ViewOptions } from './code-index-options.js';
import { identityWith } from '../index/identity-with.js';
import type { EmbeddedFiles } from '../index/early/embed-files.js';

/** How far an early answer looked: the files searched of HEAD's files; what it embedded, to keep (`store`). */
export interface EarlyAnswer {
  results: SearchResult[];
  searched: number;
  total: number;
  /** Stores the chunks embedded for this answer, so the index run that follows does not embed them again. */
  store(onNotice?: (message: string) => void): Promise<boolean>;
}

/**
 * A fresh clone's answer before its index exists (index/early/): from what the store holds already and the files
 * that best match the question's words, chunked and embedded now. Null whenever that does not apply (the search
 * then indexes first, as always): the view asked for is more than HEAD as committed (uncommitted edits, added
 * sources), HEAD was ever indexed here (a branch's catch-up is quick), this is a plain folder, or HEAD is small
 * enough to index at once. `startRun`: a one-shot process's background index run, started (and handed what was
 * chunked and embedded) as soon as the answer's files are embedded.
 */
export async function earlyAnswer(ctx: IndexContext, opts: SearchOptions & ViewOptions, model: () => Promise<Embedder>, query: string, startRun?: StartRun): Promise<EarlyAnswer | null> {
  if (opts.update === false || !ctx.head.commit || !neverIndexed(ctx)) return null;
  if (opts.sources !== false && readSources(ctx.layout.sources).length) return null;
  const changes = opts.committedOnly ? null : ctx.kind.workingChanges(ctx);
  changes?.catch(() => undefined);
  // Loaded only here: a search of an indexed clone never needs them.
  const [{ earlyView }, handOff, embedder] = await Promise.all([import('../index/early/early-view.js'), startRun && import('../index/early/hand-off.js'), model()]);
  if ((await changes)?.length) return null;
  const identity = { ...identityWith(embedder), maxLineChars: ctx.config.maxLineChars };
  // The run starts once the files are embedded, not once the answer is given: its start-up (a process, its modules,
  // git, the store: ~0.5 s on tokio) goes on while this one builds its search set and ranks, on the other core.
  const onEmbedded = handOff && startRun && ((embedded: EmbeddedFiles) => {
    startRun(attempt(() => handOff.writeHandOff(ctx.layout, identity, embedded)) ?? undefined);
  });
  const view = await earlyView(ctx, embedder, query, { pathGlob: opts.pathGlob, onEmbedded });
  if (!view) return null;
  const results = await searchManifest(view.manifest, view.retriever, query, opts);
  const store = async (onNotice?: (message: string) => void) => (await import('../index/early/store-early.js')).storeEarlyChunks(ctx, embedder, view.embedded, onNotice);
  return { results, searched: view.searched, total: view.total, store };
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
 * Starts the index run of HEAD in the background (a one-shot process's, the CLI's), given the digest of what the
 * early answer chunked and embedded. That is not stored first (creating the store and writing it would keep the
 * agent waiting ~2 s longer for this answer): it is handed to the run in a file (~2.5 MB on tokio, written in
 * milliseconds, index/early/hand-off.ts), which then neither chunks nor embeds those ~1,000 chunks again.
 */
export type StartRun = (handOff?: string) => void;

/** For a one-shot process whose early answer started the index run: says the answer is partial (`onNotice`, `onPartial`). */
export function tellPartial(early: EarlyAnswer, hooks: Pick<CodeIndexHooks, 'onNotice'>, onPartial?: (partial: PartialAnswer) => void): void {
  const notice = `${earlyNotice(early)}; indexing goes on in the background: search again once it is done ("ocrag status" shows it)`;
  hooks.onNotice?.(`ocrag: ${notice}`);
  onPartial?.({ searched: early.searched, total: early.total, notice });
}

/** What `f` gives, or null when it throws: a hand-off that could not be made only costs its run that work again. */
function attempt<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}
