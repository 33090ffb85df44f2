import type { Embedder } from '../embed/index.js';
import type { IndexContext } from '../index/index-context.js';
import { GIT } from '../index/kinds/git.js';
import type { RemoteFirstView } from '../index/remote-first.js';
import { ensureGitExclude } from '../store/layout.js';
import { listManifests } from '../store/manifest.js';
import { readSources } from '../store/sources.js';

/**
 * A fresh clone's answer from the team's published set for HEAD (index/remote-first.ts), with an index run
 * started (`startIndex`) to copy the chunks behind it. Null whenever the view asked for is more than HEAD as
 * committed (uncommitted edits, added sources), this clone has an index of its own, or nothing usable was
 * published for HEAD: the search then indexes first, as always.
 */
export async function remoteFirstAnswer(
  ctx: IndexContext,
  opts: { update?: boolean; committedOnly?: boolean; sources?: boolean },
  model: () => Promise<Embedder>,
  startIndex: (root: string) => void,
  onNotice?: (message: string) => void,
): Promise<RemoteFirstView | null> {
  if (opts.update === false || !ctx.config.remote || !ctx.head.commit) return null;
  if (listManifests(ctx.layout.manifests).length) return null;
  if (opts.sources !== false && readSources(ctx.layout.sources).length) return null;
  // .ocrag/ must not show as an untracked file of the clone.
  ensureGitExclude(ctx.repo);
  // A status of its own, after the exclude: the one a one-shot search started at open may list `.ocrag/config.json`.
  if (!opts.committedOnly && (await GIT.workingChanges(ctx))?.length) return null;
  // Loaded only here: a search of an indexed clone never needs it.
  const view = await (await import('../index/remote-first.js')).remoteFirstView(ctx, await model());
  if (!view) return null;
  startIndex(ctx.repo.root);
  onNotice?.(`ocrag: answered from the team's index of ${view.manifest.commit.slice(0, 8)} (${ctx.config.remote}); this clone's own index is being copied in the background`);
  return view;
}
