import type { Candidate } from '../candidates.js';
import type { QueryInfo } from '../query.js';
import type { ViewFile } from '../view.js';
import { isBarrel } from './barrels.js';
import type { RankingConfig } from './config.js';
import { definitionStrength } from './definitions.js';
import { innermost, writtenName } from '../../text/breadcrumb.js';
import { pathRole } from './path-roles.js';
import { stemNamesSymbol, type PathScorer } from './path-words.js';

/** A candidate chunk at one of its paths, with its ranking score. */
export interface Hit {
  candidate: Candidate;
  file: ViewFile;
  /** Fused relevance before boosts (0..1). */
  base: number;
  score: number;
  /** What each component added or multiplied, for `npm run eval -- --explain`. */
  parts: { definition: number; path: number; file: number; hub: number; penalty: number; coherence: number };
}

/**
 * Scores every (file, chunk) pair: fused relevance, plus boosts for defining a queried name and for path words
 * matching the query, times penalties for files that are not the implementation. Boosts are scaled by the
 * best fused score so they mean the same for every query.
 */
/** What scoring needs to know about the query beyond the candidates. */
export interface RankContext {
  q: QueryInfo;
  cfg: RankingConfig;
  paths: PathScorer;
  /** Names with a visible definition; a name without one may be answered by the module that re-exports it. */
  defined: Set<string>;
  /** Blob → whole-file evidence 0..1 (empty when that component is off). */
  files: Map<string, number>;
  /** Blob → centrality 0..1 (empty when that component is off). */
  hubs: Map<string, number>;
}

export function scoreHits(fused: Map<Candidate, number>, ctx: RankContext): Hit[] {
  const { q, cfg, paths } = ctx;
  let best = 0;
  for (const v of fused.values()) best = Math.max(best, v);
  const unit = best || 1;
  const hits: Hit[] = [];
  for (const [candidate, base] of fused) {
    for (const file of candidate.files) {
      const parts = { definition: 0, path: 0, file: unit * cfg.fileBoost * (ctx.files.get(file.blob) ?? 0), hub: unit * cfg.centralityBoost * (ctx.hubs.get(file.blob) ?? 0), penalty: 1, coherence: 0 };
      if (cfg.definitions) parts.definition = unit * cfg.definitionBoost * definitionTier(candidate, file, ctx);
      if (cfg.pathWords) {
        const match = paths.score(file);
        if (match >= cfg.pathMinMatch) parts.path = unit * cfg.pathBoost * match;
      }
      if (cfg.penalties) parts.penalty *= pathPenalty(file.path, q, cfg, PROSE.has(candidate.chunk.language));
      if (cfg.prose) parts.penalty *= languagePenalty(candidate.chunk.language, q, cfg);
      if (cfg.legacy && file.legacy && !q.wantsLegacy) parts.penalty *= cfg.legacyPenalty;
      // Unless it re-exports a name the query gives: then it may be the answer (the definition can live in another package).
      if (cfg.barrels && parts.definition === 0 && isBarrel(candidate.chunk.text)) parts.penalty *= cfg.barrelPenalty;
      hits.push({ candidate, file, base, score: (base + parts.definition + parts.path + parts.file + parts.hub) * parts.penalty, parts });
    }
  }
  return hits;
}

/** 1 for the definition of a queried name (1.5 in a file named after it), less for its members; halved in sentences. */
function definitionTier(c: Candidate, file: ViewFile, { q, cfg, defined }: RankContext): number {
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

const cachedPenalty = new Map<string, number>();

/** `prose`: the chunk is documentation, which a docs/ folder holds as its own, not as example code. */
export function pathPenalty(path: string, q: QueryInfo, cfg: RankingConfig, prose = false): number {
  const key = `${cfg.testPenalty},${cfg.examplePenalty},${cfg.secondaryPenalty},${cfg.declarationPenalty},${cfg.packageMarkerPenalty},${q.wantsTests ? 1 : 0}${q.wantsExamples ? 1 : 0}${prose ? 1 : 0}${path}`;
  let p = cachedPenalty.get(key);
  if (p === undefined) {
    const role = pathRole(path);
    p = 1;
    if (role.test && !q.wantsTests) p *= cfg.testPenalty;
    if (role.example && !q.wantsExamples && !(prose && DOCS_DIR.test(path))) p *= cfg.examplePenalty;
    if (role.secondary) p *= cfg.secondaryPenalty;
    if (role.declaration) p *= cfg.declarationPenalty;
    if (role.packageMarker) p *= cfg.packageMarkerPenalty;
    if (cachedPenalty.size > 50_000) cachedPenalty.clear();
    cachedPenalty.set(key, p);
  }
  return p;
}

const DOCS_DIR = /(?:^|\/)docs?\//i;
const PROSE = new Set(['markdown', 'rst', 'asciidoc', 'text', 'latex', 'html']);
const CONFIG = new Set(['json', 'yaml', 'toml', 'ini', 'properties', 'xml', 'go_mod', 'make', 'dockerfile', 'cmake', 'starlark', 'hcl', 'nix']);

/** Prose and configuration answer "how do I" questions about a project, rarely "where is the code that". */
export function languagePenalty(language: string, q: QueryInfo, cfg: RankingConfig): number {
  if (PROSE.has(language)) return q.wantsDocs ? 1 : cfg.prosePenalty;
  if (CONFIG.has(language)) return q.wantsConfig ? 1 : cfg.configPenalty;
  return 1;
}
