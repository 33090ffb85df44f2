import { argName, wording, type SurfaceId } from './contract/tools.js';
import { echoedQuery } from './report.js';

/** What a search was asked, as far as what its empty answer says depends on it. */
export interface EmptyAsk {
  query: string;
  /** The relevance rule's threshold (search/relevance.ts); 0 answers with the closest chunks whatever they are. */
  minMatch: number;
  language?: string;
  /** A path glob or a source narrowed what was searched. */
  narrowed: boolean;
  /** A score floor the asker chose (the CLI's --min-score): an empty answer is then theirs, and nothing is said. */
  minScore?: number;
}

/** How one surface names the ways out of an empty answer. */
export interface NextSteps {
  /** The tool that finds a definition by its name, where the surface has one. */
  nameTool?: string;
  /** The way to see the closest chunks anyway (`--min-match 0`, `min_score=0`, a button). */
  showAll: string;
  /** The relevance threshold as the surface names it, followed by its value (`--min-match`, `min_score`); none where it has no name. */
  minMatch?: string;
  language: string;
  path: string;
}

/**
 * What every surface says when a search answers nothing, or null when the empty answer needs no word. One decision
 * for the CLI, MCP, the OpenCode plugin and the panel, each in its own words:
 * - under a language filter, the chunks of that language among the best matches were none (the language is kept
 *   after ranking, so "nothing in the repository" would be untrue);
 * - else, under the relevance rule, nothing is close enough (search/relevance.ts): "no good match", and how to go on.
 */
export function emptyAnswerNote(ask: EmptyAsk, steps: NextSteps): string | null {
  if (ask.minScore !== undefined) return null;
  if (ask.language !== undefined) {
    const wellEnough = ask.minMatch > 0 ? ` that match well enough${steps.minMatch ? ` (${steps.minMatch} ${ask.minMatch})` : ''}` : '';
    return `no ${echoedQuery(ask.language)} results among the best matches${wellEnough}; try without ${steps.language} or with ${steps.path}`;
  }
  if (ask.minMatch > 0) return noGoodMatch(ask.query, { nameTool: steps.nameTool, showAll: steps.showAll, filtered: ask.narrowed });
  return null;
}

/**
 * What every surface says instead of the closest noise when nothing in the repository is a real match
 * (search/relevance.ts): what to try next, and `showAll`, that surface's way to see the closest chunks anyway.
 */
function noGoodMatch(query: string, next: { nameTool?: string; showAll: string; filtered?: boolean }): string {
  const byName = next.nameTool ? ` (${next.nameTool} finds a definition by its name)` : '';
  // A search narrowed by a path or source judged only what the filter kept: saying "this repository" would send the user looking elsewhere.
  const where = next.filtered ? 'the files the filter keeps' : 'this repository';
  return `no good match for "${echoedQuery(query)}": nothing in ${where} is close enough in meaning or holds its rarer words; try other words or an identifier you know${byName}, or ${next.showAll} to see the closest chunks anyway`;
}

/** The next steps in an agent tool surface's words (its find_symbol, its search_code's arguments), from the contract. */
export function agentNextSteps(surface: SurfaceId): NextSteps {
  const w = wording(surface);
  const minScore = argName(w, 'search_code', 'min_score');
  return { nameTool: w.tool('find_symbol'), showAll: `${minScore}=0`, minMatch: minScore, language: argName(w, 'search_code', 'language'), path: argName(w, 'search_code', 'path_glob') };
}

/** The CLI's: its flags. */
export const CLI_NEXT_STEPS: NextSteps = { showAll: '--min-match 0', minMatch: '--min-match', language: '--language', path: '--path' };

/** The panel's: its filters and its button. */
export const PANEL_NEXT_STEPS: NextSteps = { showAll: '"show the closest anyway"', language: 'the language filter', path: 'a path filter' };
