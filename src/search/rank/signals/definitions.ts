import type { Candidate } from '../../candidates.js';
import type { QueryInfo } from '../../query.js';
import type { ViewFile } from '../../view.js';
import { innermost, writtenName } from '../../../text/breadcrumb.js';
import type { RankingConfig } from '../config.js';
import { definitionStrength } from '../definitions.js';
import { stemNamesSymbol } from '../path-words.js';
import type { BoostSignal } from './signal.js';

/** Chunks defining a name the query gives (`Router`, or `ZodType` inside a sentence). */
export const definitions: BoostSignal = {
  name: 'definitions',
  stage: 'boost',
  weight: (cfg) => cfg.definitionBoost,
  prepare: ({ q, cfg, candidates }) => (hit) => definitionTier(hit.candidate, hit.file, q, cfg, candidates.defined),
};

/**
 * 1 for the definition of a queried name (more in a file named after it), less for its members; less in sentences.
 * `defined`: names with a visible definition; a name without one may be answered by the module that re-exports it.
 */
function definitionTier(c: Candidate, file: ViewFile, q: QueryInfo, cfg: RankingConfig, defined: Set<string>): number {
  let tier = 0;
  for (const name of q.symbols) {
    const strength = definitionStrength(c.chunk.symbol, c.chunk.text, name);
    if (strength === 'none' || (strength === 'reexport' && defined.has(name))) continue;
    let t = strength === 'defines' ? 1 : strength === 'text' || strength === 'reexport' ? cfg.definitionTextTier : cfg.definitionMemberTier;
    // `app.set` asked and `function app.set` found: the qualified name pins the definition down.
    if (strength === 'defines' && name.includes('.') === false && q.symbols.some((s) => s !== name && s.endsWith(`.${name}`) && writtenAs(c.chunk.symbol, s))) t *= cfg.qualifiedDefinitionFactor;
    if (stemNamesSymbol(file, name)) t *= cfg.namedFileDefinitionFactor;
    tier = Math.max(tier, t);
  }
  return q.isName ? tier : tier * cfg.definitionInSentenceFactor;
}

/** Whether the chunk's own definition is written exactly so (`function app.set` for `app.set`). */
function writtenAs(symbol: string, qualified: string): boolean {
  const element = innermost(symbol);
  return element !== null && writtenName(element) === qualified;
}
