import { argName, wording, type SurfaceId } from './contract/tools.js';
import { echoedQuery } from './report.js';

/**
 * What every surface says instead of the closest noise when nothing in the repository is a real match
 * (search/relevance.ts): what to try next, and `showAll`, that surface's way to see the closest chunks anyway.
 */
export function noGoodMatch(query: string, next: { nameTool?: string; showAll: string; filtered?: boolean }): string {
  const byName = next.nameTool ? ` (${next.nameTool} finds a definition by its name)` : '';
  // A search narrowed by a path, language or source judged only what the filter kept: saying "this repository" would send the user looking elsewhere.
  const where = next.filtered ? 'the files the filter keeps' : 'this repository';
  return `no good match for "${echoedQuery(query)}": nothing in ${where} is close enough in meaning or holds its rarer words; try other words or an identifier you know${byName}, or ${next.showAll} to see the closest chunks anyway`;
}

/** The same, in an agent tool surface's words (its find_symbol, its search_code's min_score), from the contract. */
export function agentNoGoodMatch(query: string, surface: SurfaceId, filtered = false): string {
  const w = wording(surface);
  return noGoodMatch(query, { nameTool: w.tool('find_symbol'), showAll: `${argName(w, 'search_code', 'min_score')}=0`, filtered });
}
