import fs from 'node:fs';
import path from 'node:path';
import { writeAtomicallyWith } from '../util/atomic-write.js';
import type { ChunkRow } from '../store/contract.js';
import { crashPoint } from '../util/crash-point.js';
import { packStrings, unpackStrings } from './packed-strings.js';
import { SectionedFile, writeSectionedFile, type Section } from './sectioned-file.js';
import { indexSegmentRows, readSegmentIndex, SEGMENT_INDEX_SECTIONS, segmentIndexSections, type SegmentIndex } from './segment-index.js';

/**
 * What a search set took in after its snapshot was written, appended beside it as segments: a commit's few new
 * chunks are then a file of their own, not a rewrite of the whole snapshot (21 MB on tokio). Segment n of a
 * snapshot is `<snapshot>.<base id>.<n>.seg`: written whole under another name and renamed, so a reader sees it
 * whole or not at all, and a crash leaves the snapshot as the last whole segment left it. A segment names the
 * snapshot it extends by that snapshot's id, so segments of a snapshot since replaced are never read onto the new one.
 * A blob's chunks never change within a store incarnation (resident.ts), so nothing is ever taken out: a segment
 * only adds, and a blob some segment already holds is skipped when another brings it again.
 */
const MAGIC = 'ocragRSG';
const EAGER = [
  'ids.utf8', 'ids.ends', 'blobs.utf8', 'blobs.ends', 'languages.utf8', 'languages.ends', 'symbols.utf8', 'symbols.ends',
  'texts.utf8', 'texts.ends', 'terms.utf8', 'terms.ends', 'starts', 'ends', 'vectors', 'scales', 'empty.utf8', 'empty.ends',
];

/** Each string field of a row and the sections it is kept in. */
const TEXT_FIELDS = [['ids', 'id'], ['blobs', 'blob'], ['languages', 'language'], ['symbols', 'symbol'], ['texts', 'text'], ['terms', 'terms']] as const;

/** Segments a snapshot may gather before the next write compacts them into it. */
export const MAX_SEGMENTS = 8;

interface SegmentMeta {
  dim: number;
  count: number;
  base: string;
  seq: number;
  /** Its postings' and names' keys are in order (segment-index.ts); absent in a segment written without them. */
  sortedKeys?: true;
}

/** One chunk as a segment keeps it: its info, search words, and the int8 vector with its scale, as the set holds it. */
export type SegmentRow = Omit<ChunkRow, 'vector'> & { vector: Int8Array; scale: number };

/** A segment's chunks and the blobs it learnt have none; as read, its rows' words indexed (absent in an older one). */
export interface Segment {
  rows: SegmentRow[];
  empty: string[];
  indexed?: SegmentIndex;
}

export function segmentFile(snapshot: string, base: string, seq: number): string {
  return `${snapshot}.${base}.${seq}.seg`;
}

/** Writes segment `seq` of the snapshot `base`, atomically. */
export function writeSegment(snapshot: string, base: string, seq: number, dim: number, segment: Segment): void {
  const { rows } = segment;
  const eager: Record<string, Section> = {};
  const strings = (name: string, items: string[]) => {
    const packed = packStrings(items);
    eager[`${name}.utf8`] = packed.utf8;
    eager[`${name}.ends`] = packed.ends;
  };
  for (const [name, field] of TEXT_FIELDS) strings(name, rows.map((r) => r[field]));
  strings('empty', segment.empty);
  eager.starts = Int32Array.from(rows, (r) => r.startLine);
  eager.ends = Int32Array.from(rows, (r) => r.endLine);
  eager.scales = Float64Array.from(rows, (r) => r.scale);
  const vectors = new Int8Array(rows.length * dim);
  rows.forEach((r, i) => vectors.set(r.vector, i * dim));
  const index = indexSegmentRows(rows);
  Object.assign(eager, segmentIndexSections(index));
  // Last, as ever: a file's end lies in data, not in padding no checksum covers.
  eager.vectors = vectors;
  const sorted = index.postings.inOrder && index.definitions.inOrder ? { sortedKeys: true as const } : {};
  const meta: SegmentMeta = { dim, count: rows.length, base, seq, ...sorted };
  writeAtomicallyWith(
    segmentFile(snapshot, base, seq),
    (tmp) => {
      writeSectionedFile(tmp, MAGIC, meta, eager, {});
      crashPoint('snapshot.segment');
    },
    { durable: false },
  );
}

/**
 * The segments of snapshot `base`, in order, up to the first missing one; 'damaged' when one is there but torn,
 * fails a checksum or does not belong (a snapshot must then not be answered from).
 */
export function readSegments(snapshot: string, base: string, dim: number): Segment[] | 'damaged' {
  const out: Segment[] = [];
  for (let seq = 1; ; seq++) {
    const file = segmentFile(snapshot, base, seq);
    if (!fs.existsSync(file)) return out;
    const segment = readSegment(file, base, seq, dim);
    if (!segment) return 'damaged';
    out.push(segment);
  }
}

function readSegment(file: string, base: string, seq: number, dim: number): Segment | null {
  const opened = SectionedFile.open<SegmentMeta>(file, MAGIC, EAGER, { optional: SEGMENT_INDEX_SECTIONS });
  if (!opened) return null;
  try {
    const { meta } = opened;
    const section = <T extends Section>(name: string) => opened.section(name) as T;
    const strings = (name: string) => unpackStrings({ utf8: section<Uint8Array>(`${name}.utf8`), ends: section<Uint32Array>(`${name}.ends`) });
    const n = meta.count;
    const vectors = section<Int8Array>('vectors');
    const [ids, blobs, languages, symbols, texts, terms] = TEXT_FIELDS.map(([name]) => strings(name));
    const starts = section<Int32Array>('starts');
    const ends = section<Int32Array>('ends');
    const scales = section<Float64Array>('scales');
    if (meta.base !== base || meta.seq !== seq || meta.dim !== dim || vectors.length !== n * dim) return null;
    if ([ids, blobs, languages, symbols, texts, terms, starts, ends, scales].some((column) => column.length !== n)) return null;
    const rows = new Array<SegmentRow>(n);
    for (let i = 0; i < n; i++) {
      rows[i] = { id: ids[i], blob: blobs[i], startLine: starts[i], endLine: ends[i], language: languages[i], symbol: symbols[i], text: texts[i], terms: terms[i], vector: vectors.subarray(i * dim, (i + 1) * dim), scale: scales[i] };
    }
    const indexed = readSegmentIndex(opened, n, meta.sortedKeys === true);
    if (indexed === null) return null;
    return { rows, empty: strings('empty'), indexed };
  } catch {
    return null;
  } finally {
    opened.close();
  }
}

/**
 * At least as many rows as the segments of snapshot `base` hold (each row's vector alone is `dim` bytes of its file),
 * from their sizes alone: what a restored snapshot leaves room for after its vectors (int8-dots.ts).
 */
export function segmentRoom(snapshot: string, base: string, dim: number): number {
  let rows = 0;
  for (let seq = 1; dim > 0; seq++) {
    let size: number;
    try {
      size = fs.statSync(segmentFile(snapshot, base, seq)).size;
    } catch {
      // No such segment (or a name no file can have): no room for it, as readSegments reads none.
      return rows;
    }
    rows += Math.floor(size / dim);
  }
  return rows;
}

/** The segment files beside a snapshot (any base), for cleaning up after the snapshot is written whole. */
export function isSegmentOf(snapshot: string, name: string): boolean {
  return name.startsWith(`${path.basename(snapshot)}.`) && name.endsWith('.seg');
}

/** Why any segment of this snapshot would not be read (torn, damaged), or null. */
export function segmentsDamage(snapshot: string, base: string | undefined, dim: number): string | null {
  if (base === undefined) return null;
  return readSegments(snapshot, base, dim) === 'damaged' ? 'a segment of it is torn, or does not match its checksum' : null;
}
