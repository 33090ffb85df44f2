import { fileStamp } from '../util/file-stamp.js';
import type { IndexContext } from '../index/index-context.js';

/**
 * A fingerprint of everything besides the work tree that decides what a search answers for, read from a few
 * small files without running git, so it can be taken before every query. `source`: HEAD, the ref it points at
 * and the config; `index`: the manifests and the store identity, which index runs rewrite. Null when the refs
 * can't be read this way (reftable): then the caller must ask git every time.
 */
export interface StateSignature {
  source: string;
  index: string;
}

export function stateSignature(ctx: IndexContext): StateSignature | null {
  const head = ctx.kind.headFiles(ctx);
  if (head === null) return null;
  // `ocrag add` and `ocrag remove` change what a view holds; a plain folder's files are scanned by each view.
  const source = [...head, fileStamp(ctx.layout.config), fileStamp(ctx.layout.sources)].join('|');
  return { source, index: [ctx.layout.manifests, ctx.layout.meta].map(fileStamp).join('|') };
}
