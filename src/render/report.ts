import type { SearchResult } from '../search/search.js';

/** What a search printed in any format: the query, how long it took, and the ranked chunks. */
export interface SearchReport {
  query: string;
  latencyMs: number;
  results: SearchResult[];
}

export const OUTPUT_FORMATS = ['text', 'json', 'xml', 'markdown'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
