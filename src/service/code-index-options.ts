import type { Embedder } from '../embed/index.js';
import type { HandedChunks } from '../index/handed-chunks.js';
import type { IndexOptions } from '../index/indexer.js';

/** What a view holds: HEAD as indexed, uncommitted edits (unless committedOnly), the added sources (unless sources is false). */
export interface ViewOptions {
  update?: boolean;
  committedOnly?: boolean;
  sources?: boolean;
  /** A write the disk refuses fails the call (exit 7) instead of answering without what it would add: `ocrag add`. */
  writesRequired?: boolean;
  /** Where the embedding of the sources' new files reports, as an index run's does: a plain folder's run. */
  onProgress?: IndexOptions['onProgress'];
}

export interface CodeIndexHooks {
  /** One-line messages about work done on the user's behalf (auto-index, model build), for stderr. */
  onNotice?: (message: string) => void;
  onProgress?: IndexOptions['onProgress'];
  /** Wraps the model once loaded; a long-lived server uses it to cache query vectors. */
  wrapModel?: (model: Embedder) => Embedder;
  /** Loads the model from the caller's pool, which keeps it loaded across indexes and closes it (a long-lived host). */
  sharedModel?: (spec: string) => Promise<Embedder>;
  /**
   * Starts an index run of this repository that outlives the call (the CLI: a detached process). Given, a fresh
   * clone's search answers from the team's published set at once and leaves the copy to that run
   * (index/remote-first.ts); absent, the search indexes first.
   */
  startBackgroundIndex?: (root: string, earlyChunks?: string) => void;
}

export interface CodeIndexOptions {
  /**
   * Keep the LanceDB store open between calls (warm caches: a long-lived server's searches run ~20% faster).
   * The holder must call `releaseStore` when another process may have written the index; runs of this
   * CodeIndex release it themselves.
   */
  keepStoreOpen?: boolean;
  /** What a search's early answer chunked and embedded, for this index's runs to take instead of doing it again. */
  handed?: HandedChunks;
  /** A one-shot search: `git status` starts while the repository is opened (index/context.ts). */
  statusAtOpen?: boolean;
}
