// A snapshot's vectors are read last, with room after them for its segments' rows (int8-dots.ts): a search after a
// few commits copies no vector, yet holds the very rows and gives the very cosines of a set built whole, and of the
// same rows restored from a merged snapshot. Past the room, rows go to an array of their own, answering the same.
// Fake vectors (seeded int8, not a model's): the arithmetic and layout are judged here, not retrieval.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { int8DotKernel, KERNEL_MIN_CHUNKS } from '../../src/search/int8-dots.js';
import { ResidentChunks } from '../../src/search/resident.js';
import { MAX_SEGMENTS, segmentRoom, writeSegment, type SegmentRow } from '../../src/search/resident-segments.js';
import { snapshotBlobs } from '../../src/search/resident-snapshot.js';
import type { StoreHandle } from '../../src/store/store-handle.js';
import { tempDir } from '../helpers.js';

const DIM = 64;
/** Every blob is in hand: the store is never asked. */
const NO_STORE = {} as StoreHandle;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const next = random(29);
function rowsOf(blob: string, n: number): SegmentRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${blob}:${i}`, blob, startLine: i + 1, endLine: i + 2, language: 'ts', symbol: `fn${blob}${i}`, text: `text of ${blob} ${i}`, terms: `word${i % 5} ${blob}`,
    vector: Int8Array.from({ length: DIM }, () => Math.floor(next() * 255) - 127), scale: 0.001 + next() / 100,
  }));
}

const BASE = Array.from({ length: 60 }, (_, b) => rowsOf(`base${b}`, 20));
const COMMITS = [rowsOf('new1', 15), rowsOf('new2', 7), rowsOf('new3', 30)];
const LARGE = rowsOf('large', 3000);
const blobsOf = (groups: SegmentRow[][]) => groups.map((rows) => rows[0].blob);

/** A set's vectors, size and cosines to one query over all its chunks, through the kernel (views this large take it). */
function seen(set: ResidentChunks) {
  const vectors = (set as unknown as { vectors: Int8Array }).vectors;
  const query = Float32Array.from({ length: DIM }, (_, d) => Math.sin(d + 1));
  const all = Int32Array.from({ length: set.size }, (_, i) => set.size - 1 - i);
  return { ids: set.info.map((c) => c.id), vectors, cosines: [...set.cosines(query, all)] };
}

async function filled(groups: SegmentRow[][], file: string | null = null): Promise<ResidentChunks> {
  const set = new ResidentChunks(DIM);
  set.snapshotFile = file;
  await set.ensure(NO_STORE, blobsOf(groups), async () => ({ rows: groups.flat(), empty: [] }));
  return set;
}

function restored(file: string): ResidentChunks {
  const set = new ResidentChunks(DIM);
  set.snapshotFile = file;
  set.restoreSnapshot();
  return set;
}

test('segment rows land after the snapshot vectors in place, and answer as a set built whole and as a merged snapshot', async () => {
  assert.ok(BASE.flat().length >= KERNEL_MIN_CHUNKS, 'a set the kernel reads in place');
  const dir = tempDir('segment-vectors');
  const file = path.join(dir, 'set.snap');
  await filled(BASE, file);
  // One commit at a time, as searches after three index runs add them: each a segment.
  for (let c = 1; c <= COMMITS.length; c++) await filled([...BASE, ...COMMITS.slice(0, c)], file);
  assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.seg')).length, COMMITS.length);
  const { id } = snapshotBlobs(file, DIM)!;
  assert.ok(segmentRoom(file, id!, DIM) >= COMMITS.flat().length, 'room for every segment row, told by file sizes');
  assert.equal(segmentRoom(file, 'x'.repeat(5000), DIM), 0, 'an id no file name can hold: no room, no throw');

  const whole = seen(await filled([...BASE, ...COMMITS]));
  const set = restored(file);
  const withSegments = seen(set);
  assert.deepEqual(withSegments.ids, whole.ids);
  assert.deepEqual(withSegments.vectors.subarray(0, set.size * DIM), whole.vectors.subarray(0, set.size * DIM));
  assert.deepEqual(withSegments.cosines, whole.cosines);
  // Read where the snapshot put them, segment rows and all: the kernel's sums lie in that very memory.
  const sums = int8DotKernel(DIM)!(new Float64Array(DIM).fill(0.5), withSegments.vectors, set.size, Int32Array.from({ length: set.size & ~1 }, (_, i) => i));
  assert.equal(sums.buffer, withSegments.vectors.buffer, 'nothing copied');
  assert.ok(withSegments.vectors.byteOffset > 0, 'the vectors follow the other sections');

  // Rows past the room go to an array of their own (a long-lived set taking in a large edit): the same cosines.
  await set.ensure(NO_STORE, [...blobsOf([...BASE, ...COMMITS]), 'large'], async () => ({ rows: LARGE, empty: [] }));
  const grown = seen(set);
  assert.notEqual(grown.vectors.buffer, withSegments.vectors.buffer, 'grown apart');
  assert.deepEqual(grown.cosines, seen(await filled([...BASE, ...COMMITS, LARGE])).cosines);
});

test('a snapshot with its segments merged in restores to the same set', async () => {
  const dir = tempDir('segment-vectors');
  const file = path.join(dir, 'set.snap');
  await filled(BASE, file);
  for (let c = 1; c <= COMMITS.length; c++) await filled([...BASE, ...COMMITS.slice(0, c)], file);
  const withSegments = seen(restored(file));
  const { id } = snapshotBlobs(file, DIM)!;
  // Segments that add nothing fill the limit, so the set is written whole with the commits' inside.
  for (let seq = COMMITS.length + 1; seq <= MAX_SEGMENTS; seq++) writeSegment(file, id!, seq, DIM, { rows: [], empty: [] });
  const compacting = new ResidentChunks(DIM);
  compacting.snapshotFile = file;
  await compacting.compactSegments();
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.seg')), [], 'merged');
  const merged = seen(restored(file));
  assert.deepEqual(merged.ids, withSegments.ids);
  assert.deepEqual(merged.cosines, withSegments.cosines);
});

test('a segment with a flipped vector byte is never answered from: the snapshot goes', async () => {
  const dir = tempDir('segment-vectors');
  const file = path.join(dir, 'set.snap');
  await filled(BASE, file);
  for (let c = 1; c <= COMMITS.length; c++) await filled([...BASE, ...COMMITS.slice(0, c)], file);
  const segment = path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.2.seg'))!);
  const bytes = fs.readFileSync(segment);
  // The vectors are the segment's last section: its last byte is a vector's.
  bytes[bytes.length - 1] ^= 1;
  fs.writeFileSync(segment, bytes);
  const set = restored(file);
  assert.equal(set.size, 0, 'nothing restored');
  assert.deepEqual(fs.readdirSync(dir), [], 'the snapshot and its segments are gone, to be built from the store');
});
