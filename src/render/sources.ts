import type { Excluded } from '../service/exclude.js';
import type { SourceSpec } from '../store/sources.js';

// What `ocrag add` and `ocrag remove` say, word for word on every surface (the CLI's stderr, the plugin's answers).

export function addedLine(source: { name: string; root: string; files: number }): string {
  return `added source "${source.name}" (${source.root}): ${source.files} files indexed`;
}

export function removedLine(removed: { source: SourceSpec } | { excluded: Excluded }): string {
  if ('source' in removed) return `removed source "${removed.source.name}" (${removed.source.root}); its chunks go with the next gc`;
  const { excluded } = removed;
  return `${excluded.added ? 'excluded' : 'already excluded:'} ${excluded.path}: no longer indexed or searched (exclude "${excluded.glob}" in ${excluded.config}; take it out to bring it back)`;
}
