import fs from 'node:fs';
import { chunkFile } from '../chunk/index.js';
import { keyFsPath, pathFields, shownPath, type PathFields } from '../git/path-key.js';
import { embeddingText } from '../index/embed-blobs.js';
import { classifyContent } from '../index/select.js';
import { namedFile, resultKey } from '../search/result-path.js';
import type { SearchOptions, SearchResult } from '../search/search.js';
import type { Manifest } from '../store/manifest.js';
import { formatBreadcrumb } from '../text/breadcrumb.js';
import { OcragError } from '../util/errors.js';

/** Where related code was asked for: a file as search names it, and a line inside the code of interest. */
export interface RelatedQuery {
  path: string;
  startLine?: number;
  k: number;
}

/** The chunk the question is about (left out of the answer) and the chunks most like it. */
export interface RelatedAnswer {
  anchor: PathFields & { startLine: number; endLine: number; symbol: string };
  results: SearchResult[];
}

/** Results beyond k asked for, so that the anchor and its overlaps can be dropped and k still remain. */
const ANCHOR_SLACK = 10;

/**
 * Code like the chunk at a location of the view: that chunk, read from disk and cut as the indexer cuts it, is the
 * query, as embedded when indexed (breadcrumb and text).
 */
export async function relatedCode(
  where: { root: string; maxLineChars: number; view: Manifest },
  query: RelatedQuery,
  search: (text: string, opts: SearchOptions) => Promise<SearchResult[]>,
): Promise<RelatedAnswer> {
  const { view } = where;
  const given = query.path.startsWith('"') ? query.path : query.path.replace(/\\/g, '/').replace(/^\.\//, '');
  const named = namedFile(view.files, given);
  if (!named) throw new OcragError(Object.hasOwn(view.skipped, given) ? `${shownPath(given)} is not indexed (skipped: ${view.skipped[given]})` : `${shownPath(given)} is not in the index: give a path from the repository root, as search_code returns it`);
  if ('ambiguous' in named) throw new OcragError(`${given} names ${named.ambiguous.length} files (${named.ambiguous.join(', ')}): give the quotedPath search_code returns`);
  const rel = named.key;
  const anchor = await chunkAt(where.root, rel, query.startLine, where.maxLineChars);
  const candidates = await search(embeddingText(anchor), { k: query.k + ANCHOR_SLACK });
  const results = candidates.filter((r) => resultKey(r) !== rel || r.endLine < anchor.startLine || r.startLine > anchor.endLine).slice(0, query.k);
  return { anchor: { ...pathFields(rel), startLine: anchor.startLine, endLine: anchor.endLine, symbol: formatBreadcrumb(anchor.symbols) }, results };
}

/** The chunk of the file keyed `rel` (as it is on disk) that holds the line: the innermost, that is the shortest, of those that do. */
async function chunkAt(root: string, rel: string, line: number | undefined, maxLineChars: number) {
  const shown = shownPath(rel);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(keyFsPath(root, rel));
  } catch {
    throw new OcragError(`${shown} is in the index but not on disk (deleted?)`);
  }
  // Read as indexing reads it (a GBK file as Chinese, not U+FFFD), so the anchor's text is the indexed text.
  const content = classifyContent(bytes, maxLineChars);
  if (!('text' in content)) throw new OcragError(`${shown} has no code to compare (${'reason' in content ? content.reason : 'a PDF'})`);
  const { text } = content;
  const chunks = await chunkFile(shown, text, { maxLineChars });
  if (chunks.length === 0) throw new OcragError(`${shown} has no code to compare (empty?)`);
  if (line === undefined) return chunks[0];
  const holding = chunks.filter((c) => c.startLine <= line && line <= c.endLine).sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine));
  if (holding.length === 0) throw new OcragError(`${shown} has no chunk at line ${line} (it has ${text.split('\n').length} lines)`);
  return holding[0];
}
