import type { Config } from '../config/config.js';

/**
 * The warning of a run that selected no file: it succeeds (an empty index is a valid one) but is almost always
 * a mistaken --include or exclude, so every surface says so. Null when files were selected.
 */
export function emptySelectionWarning(files: number, skipped: number, config: Pick<Config, 'include' | 'exclude'>): string | null {
  if (files > 0) return null;
  const filters = [config.include.length ? `include ${config.include.join(', ')}` : '', config.exclude.length ? `exclude ${config.exclude.join(', ')}` : ''].filter(Boolean);
  const why = filters.length ? ` with ${filters.join('; ')}` : '';
  const skips = skipped ? ` (${skipped} skipped)` : '';
  return `0 files selected for indexing${why}${skips}: nothing is searchable; check include/exclude (flags, OCRAG_INCLUDE, .ocrag/config.json)`;
}
