import { rootCommit } from '../git/repo.js';
import type { IndexContext } from '../index/index-context.js';
import { OcragError } from '../util/errors.js';

/**
 * The folder a repository's manifests take in a remote store shared by many: `name-<remoteName>` when one is
 * configured (`OCRAG_REMOTE_NAME`, e.g. the CI's `owner/repo`), else `root-<root commit>`, which every full clone
 * of the repository derives alike and no other repository has. A shallow clone (CI's default checkout) has no
 * root to derive, so it needs the name (or the full history).
 */
export async function remoteRepository(ctx: Pick<IndexContext, 'config' | 'repo'>): Promise<string> {
  const name = ctx.config.remoteName.trim();
  if (name) return `name-${encodeURIComponent(name)}`;
  const root = await rootCommit(ctx.repo.root);
  if (!root) throw new OcragError('a shallow clone cannot name its repository by its root commit: set OCRAG_REMOTE_NAME (e.g. owner/repo) or "remoteName" in .ocrag/config.json, or fetch the full history');
  return `root-${root}`;
}
