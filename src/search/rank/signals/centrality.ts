import type { VisibleChunks } from '../../lexical.js';
import type { ResidentChunks } from '../../resident.js';
import { codeTerms } from '../../../text/terms.js';
import { ownDefinition, parseBreadcrumb } from '../../../text/breadcrumb.js';
import { stem } from '../../../text/stem.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /** Files whose top-level names many other files mention (hubs) gain up to this share of the best score; measured no gain. */
  centrality: false,
  centralityBoost: 0.1,
};

/** Files whose top-level names many other files mention (hubs). */
export const centrality: BoostSignal<typeof DEFAULTS> = {
  name: 'centrality',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.centralityBoost,
  prepare: ({ candidates }) => {
    const hubs = fileCentrality(candidates.resident, candidates.visible);
    return (hit) => hubs.get(hit.file.blob) ?? 0;
  },
};

const cache = new WeakMap<VisibleChunks, Map<string, number>>();

/**
 * How central each file is, 0..1 per blob: how many other files mention the names it defines at top level (its
 * classes, types, functions), log-scaled. The hub files of a package (`core.ts`, `Gson.java`, `context.go`) are
 * what "how does X work" questions are usually about; a language-independent stand-in for the import graph,
 * computed from the symbol table and the word postings once per view.
 */
function fileCentrality(resident: ResidentChunks, visible: VisibleChunks): Map<string, number> {
  let out = cache.get(visible);
  if (out) return out;
  const defs = new Map<string, Set<string>>();
  for (const i of visible.chunks) {
    const { symbol, blob } = resident.info[i];
    if (parseBreadcrumb(symbol).length !== 1) continue;
    const name = ownDefinition(symbol);
    if (!name || name.length < 4) continue;
    const term = codeTerms(name)[0];
    if (!term) continue;
    let set = defs.get(blob);
    if (!set) defs.set(blob, (set = new Set()));
    set.add(stem(term));
  }
  const files = visible.fileLength.size;
  const degree = new Map<string, number>();
  for (const [blob, terms] of defs) {
    const citing = new Set<string>();
    for (const term of terms) {
      const posting = resident.postings.get(term);
      if (!posting) continue;
      const mentioning = new Set<string>();
      for (const d of posting.docs) if (visible.mask[d]) mentioning.add(resident.info[d].blob);
      // A word most files contain (`error`, `value`) says nothing about who uses this file.
      if (mentioning.size > files / 4) continue;
      for (const b of mentioning) if (b !== blob) citing.add(b);
    }
    degree.set(blob, citing.size);
  }
  const top = Math.max(1, ...degree.values());
  out = new Map([...degree].map(([blob, d]) => [blob, Math.log1p(d) / Math.log1p(top)]));
  cache.set(visible, out);
  return out;
}
