import { ownDefinition } from '../text/breadcrumb.js';
import { PostingLog } from './posting-log.js';
import { ListTable, PostingTable, type PackedLists } from './postings.js';
import { definitionKey, type IndexedRows } from './resident-index.js';
import type { SectionedFile, Section } from './sectioned-file.js';
import { listSectionNames, listSections, readListSections } from './list-sections.js';

/**
 * A segment's rows indexed as a resident set indexes them (resident-index.ts), written with the segment by whoever
 * appends it (an index run, off the search's clock): a one-shot search then takes a segment's postings and symbol
 * table as views and indexes none of its words (tokio, three one-file commits: ~80 ms of a loaded search's
 * CPU, issue 31). Chunk numbers count from the segment's first row.
 */
export interface SegmentIndex extends IndexedRows {
  lengths: Float64Array;
}

const POSTING_COLUMNS = ['docs', 'tfs'];
const DEFINITION_COLUMNS = ['docs'];

interface IndexedRow {
  terms: string;
  symbol: string;
  text: string;
}

/** Sections a segment with its index holds besides its rows; one written before them has none (older readers skip them). */
export const SEGMENT_INDEX_SECTIONS = ['lengths', ...listSectionNames('postings', POSTING_COLUMNS), ...listSectionNames('definitions', DEFINITION_COLUMNS)];

export function indexSegmentRows(rows: IndexedRow[]): SegmentIndex {
  const log = new PostingLog();
  const lengths = Float64Array.from(rows, (r, i) => log.add(i, r.terms, r.symbol, r.text));
  const definitions = new ListTable(['int32']);
  rows.forEach((r, i) => {
    const name = ownDefinition(r.symbol);
    if (name) definitions.writable(definitionKey(name))[0].push(i);
  });
  return { lengths, postings: log.drainInto(new PostingTable()).lists.pack(), definitions: definitions.pack() };
}

export function segmentIndexSections({ lengths, postings, definitions }: SegmentIndex): Record<string, Section> {
  return { lengths, ...listSections('postings', postings, POSTING_COLUMNS), ...listSections('definitions', definitions, DEFINITION_COLUMNS) };
}

/** The index read with a segment of `count` rows: undefined when it has none, null when it does not add up. */
export function readSegmentIndex(file: SectionedFile<unknown>, count: number, inOrder: boolean): SegmentIndex | undefined | null {
  if (!SEGMENT_INDEX_SECTIONS.every((name) => file.has(name))) return undefined;
  const index = {
    lengths: file.section('lengths') as Float64Array,
    postings: readListSections(file, 'postings', POSTING_COLUMNS, inOrder),
    definitions: readListSections(file, 'definitions', DEFINITION_COLUMNS, inOrder),
  };
  return index.lengths.length === count && fits(index.postings) && fits(index.definitions) ? index : null;
}

/**
 * Whether packed lists are whole: a start per key and one past, rising, to the end of every column. Their chunk
 * numbers are taken as written, as a snapshot's are: the checksums tell a damaged file (checking each number in a
 * cold process cost more than the rest of the segment's reading).
 */
function fits({ keys, starts, columns }: PackedLists): boolean {
  const n = keys.ends.length;
  if (starts.length !== n + 1 || starts[0] !== 0 || columns.some((c) => c.length !== starts[n])) return false;
  for (let k = 0; k < n; k++) if (starts[k + 1] < starts[k]) return false;
  return true;
}
