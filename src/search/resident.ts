import fs from 'node:fs';
import path from 'node:path';
import { CHUNK_FIELDS } from '../store/chunk-columns.js';
import type { StoreHandle } from '../store/store-handle.js';
import { readSnapshot, snapshotBlobs, writeSnapshot, type ResidentState, type RestoredState } from './resident-snapshot.js';
import { SectionDamageError } from './sectioned-file.js';
import { isSegmentOf, MAX_SEGMENTS, readSegments, segmentFile, writeSegment, type Segment, type SegmentRow } from './resident-segments.js';
import { ResidentIndex } from './resident-index.js';
import { eventLoopYielder, type Pause } from '../util/event-loop.js';
import { noteUncommonRun } from '../util/run-kind.js';

export { definitionKey } from './resident-index.js';

/** Chunks an index run has in hand (embedded, or their contents looked up), and the blobs it found hold none. */
export interface HeldChunks {
  rows: SegmentRow[];
  empty: string[];
}

/** Where a set's chunks came from, counted for the whole process: tests see whether a search rebuilt its set. */
export const residentLoads = { fromStore: 0, fromSnapshot: 0, held: 0 };

/**
 * The chunks of the blobs searched so far, held in memory: info, text, an int8 copy of each vector and postings
 * of identifier-aware words. A blob's rows never change (chunk ids are content-addressed), so each blob loads once
 * and stays; searching is then exact over precisely the view's chunks, with no window to grow and no index to ask.
 */
export class ResidentChunks extends ResidentIndex {
  private loading: Promise<void> = Promise.resolve();

  /** Loads the rows of blobs not seen yet: those `held` has (an index run's) from it, the rest from the store. */
  ensure(store: StoreHandle, blobs: Iterable<string>, held?: () => Promise<HeldChunks>): Promise<void> {
    const wanted = [...blobs];
    // One load at a time: concurrent searches of one view must not both add the same blobs.
    const run = this.loading.then(() => this.load(store, wanted, held));
    this.loading = run.catch((e) => {
      if (e instanceof SectionDamageError) this.discard();
      this.failed = true;
    });
    return run;
  }

  /** A load failed (a damaged row, a damaged snapshot), maybe with part of a blob's rows added: residentFor makes a new set. */
  failed = false;

  /** Gives up this set and its snapshot file (a text in it failed its checksum): the next set is built from the store. */
  discard(): void {
    this.failed = true;
    if (this.snapshotFile) removeSnapshot(this.snapshotFile);
  }

  /**
   * Indexing the words of each row is the work here (a 1,000-file tree's 7,300 chunks: 0.5 s of CPU): it pauses
   * for the event loop between rows, so a server loading a set (after an index run, for a search) still answers.
   */
  private async load(store: StoreHandle, blobs: string[], held?: () => Promise<HeldChunks>): Promise<void> {
    this.restoreSnapshot();
    const pause = eventLoopYielder();
    const isMissing = (b: string) => !this.byBlob.has(b) && !this.empty.has(b);
    let missing = [...new Set(blobs)].filter(isMissing);
    if (missing.length) noteUncommonRun();
    if (missing.length && held) {
      const wanted = new Set(missing);
      const { rows, empty } = await held();
      const before = this.size;
      for (const row of rows) {
        if (wanted.has(row.blob)) this.addRow(row, row.terms, row);
        await pause();
      }
      // In the order asked, as a set read from the store marks them: the same set writes the same snapshot.
      const none = new Set(empty);
      for (const b of missing) if (none.has(b) && isMissing(b)) this.markEmpty(b);
      residentLoads.held += this.size - before;
      missing = missing.filter(isMissing);
    }
    if (missing.length) {
      const wanted = new Set(missing);
      const before = this.size;
      for await (const batch of (await store.get()).chunkColumns(missing, CHUNK_FIELDS)) await this.addPausing(batch, wanted, pause);
      residentLoads.fromStore += this.size - before;
      for (const b of missing) if (!this.byBlob.has(b)) this.markEmpty(b);
    }
    await this.persist(pause);
  }

  /**
   * Appends to the snapshot on disk, as a segment, the chunks of these blobs it lacks, from `held` alone, without
   * restoring it: an index run's commit then costs reading the snapshot's blob list and writing its new chunks
   * (restoring tokio's whole set and writing it anew was most of a one-file commit's 1.2–1.5 s). Past MAX_SEGMENTS
   * too, by up to LATE_SEGMENTS: the run writes the set whole once the commit is searchable (`compactSegments`).
   * False when that will not do (a set already restored here, no snapshot, a damaged one, segments far past due,
   * blobs `held` lacks, or too many new chunks): then `ensure` does it.
   */
  async appendHeld(blobs: Set<string>, held: () => Promise<HeldChunks>): Promise<boolean> {
    const file = this.snapshotFile;
    if (!file || this.restored || this.size) return false;
    const listed = snapshotBlobs(file, this.dim);
    if (!listed || listed.id === undefined) return false;
    const segments = readSegments(file, listed.id, this.dim);
    if (segments === 'damaged' || segments.length >= MAX_SEGMENTS + LATE_SEGMENTS) return false;
    for (const { rows, empty } of segments) for (const b of [...rows.map((r) => r.blob), ...empty]) listed.blobs.add(b);
    const missing = new Set([...blobs].filter((b) => !listed.blobs.has(b)));
    if (!missing.size) return true;
    const { rows, empty } = await held();
    const added = rows.filter((r) => missing.has(r.blob));
    const found = new Set([...added.map((r) => r.blob), ...empty.filter((b) => missing.has(b))]);
    if (found.size < missing.size || added.length > SMALL_SEGMENT) return false;
    writeSegment(file, listed.id, segments.length + 1, this.dim, { rows: added, empty: empty.filter((b) => missing.has(b)) });
    residentLoads.held += added.length;
    return true;
  }

  /**
   * Writes the snapshot whole with its segments inside once they reach MAX_SEGMENTS: what an index run's appends
   * (`appendHeld`) leave for after its commit is searchable. Only on a set this process has not restored or added to.
   */
  async compactSegments(): Promise<void> {
    const file = this.snapshotFile;
    if (!file || this.restored || this.size) return;
    const id = snapshotBlobs(file, this.dim)?.id;
    if (id === undefined || !fs.existsSync(segmentFile(file, id, MAX_SEGMENTS))) return;
    this.restoreSnapshot();
    if (this.base.segments < MAX_SEGMENTS) return;
    this.detachSnapshot();
    this.base = { id: (await writeSnapshot(file, this.dim, this.state())) ?? undefined, segments: 0 };
  }

  private markEmpty(blob: string): void {
    this.empty.add(blob);
    this.unsaved.empty.push(blob);
  }

  /** Where this set is kept between processes, so a one-shot CLI search does not rebuild it from the store. */
  snapshotFile: string | null = null;
  private restored = false;
  /** The snapshot file's id and how many segments follow it (resident-segments.ts); no id: the next write is whole. */
  private base: { id: string | undefined; segments: number } = { id: undefined, segments: 0 };
  /** Chunks held in the snapshot's files: the rest were added since, with their words kept until written. */
  private persisted = 0;
  private unsaved: { terms: string[]; empty: string[] } = { terms: [], empty: [] };

  /** Takes in the snapshot and its segments, once, before anything is added (loading does it; so does counting a view). */
  restoreSnapshot(read?: RestoredState): void {
    if (!this.snapshotFile || this.restored) return;
    this.restored = true;
    if (this.size !== 0) return;
    // `read`: this very file, read and checked already (a published set just placed, index/remote-first.ts).
    const restored = read ?? readSnapshot(this.snapshotFile, this.dim);
    if (!restored) return;
    const segments = restored.id === undefined ? [] : readSegments(this.snapshotFile, restored.id, this.dim);
    if (segments === 'damaged') {
      // Never answered from: the whole snapshot goes, and this set is built from the store.
      restored.close();
      removeSnapshot(this.snapshotFile);
      return;
    }
    this.restore(restored);
    for (const segment of segments) this.addSegment(segment);
    this.base = { id: restored.id, segments: segments.length };
    this.persisted = this.size;
    this.unsaved = { terms: [], empty: [] };
    residentLoads.fromSnapshot += this.size;
  }

  private addSegment({ rows, empty, indexed }: Segment): void {
    // A blob two segments both brought (two processes appending at once) is taken from the first.
    const before = new Set(rows.map((r) => r.blob).filter((b) => this.byBlob.has(b)));
    if (indexed && !before.size) this.addIndexedRows(rows, indexed);
    else for (const row of rows) if (!before.has(row.blob)) this.addRow(row, row.terms, row);
    for (const b of empty) if (!this.byBlob.has(b)) this.empty.add(b);
  }

  /**
   * Writes what was added since the snapshot was written or restored: a segment beside it while they stay few and
   * small against it, else the whole set anew (which takes in the segments: a compaction).
   */
  private async persist(pause: Pause): Promise<void> {
    const file = this.snapshotFile;
    const added = this.size - this.persisted;
    if (!file || (added === 0 && this.unsaved.empty.length === 0)) return;
    const { id, segments } = this.base;
    if (id !== undefined && segments < MAX_SEGMENTS && added <= Math.max(SMALL_SEGMENT, this.persisted / 4)) {
      try {
        writeSegment(file, id, segments + 1, this.dim, { rows: this.unsavedRows(), empty: this.unsaved.empty });
        this.base = { id, segments: segments + 1 };
      } catch {
        // A cache: the next write is whole.
        this.base = { id: undefined, segments: 0 };
      }
    } else {
      // Restored texts are still read from the file about to be replaced: take them in first.
      this.detachSnapshot();
      this.base = { id: (await writeSnapshot(file, this.dim, this.state(), pause)) ?? undefined, segments: 0 };
    }
    this.persisted = this.size;
    this.unsaved = { terms: [], empty: [] };
  }

  protected override added(terms: string): void {
    if (this.snapshotFile) this.unsaved.terms.push(terms);
  }

  private unsavedRows(): SegmentRow[] {
    const out: SegmentRow[] = [];
    for (let i = this.persisted; i < this.size; i++) {
      const { id, blob, startLine, endLine, language, symbol, text } = this.info[i];
      const vector = this.vectors.slice(i * this.dim, (i + 1) * this.dim);
      out.push({ id, blob, startLine, endLine, language, symbol, text, terms: this.unsaved.terms[i - this.persisted], vector, scale: this.scales[i] });
    }
    return out;
  }

  private state(): ResidentState {
    const { info, lengths, scales, definitions, postings, byBlob, empty } = this;
    const vectors = this.vectors.subarray(0, info.length * this.dim);
    return { info, lengths, scales, definitions, postings, byBlob, empty, vectors, isMember: (i) => this.isMember(i), fileNames: (blob) => this.fileNames(blob) };
  }

  /** Reads the rest of the restored snapshot into memory and closes it (a no-op when nothing was restored). */
  detachSnapshot: () => void = () => undefined;

  private restore(restored: RestoredState | null): void {
    if (!restored) return;
    const snap = restored.state;
    this.detachSnapshot = restored.detach;
    // Taken as they are, not copied (tokio's 15,000 of each were garbage for every one-shot search to collect):
    // `restoreSnapshot` restores only into an empty set.
    this.info = snap.info;
    this.lengths = snap.lengths;
    this.definitions = snap.definitions;
    this.postings = snap.postings;
    // A view into the file's bytes with room after it for its segments' rows (int8-dots.ts): only a chunk added
    // past that grows it into an array of its own.
    this.vectors = snap.vectors;
    this.scales = snap.scales;
    for (const [k, v] of snap.byBlob) this.byBlob.set(k, v);
    for (const b of snap.empty) this.empty.add(b);
    this.restoredFacts = { count: snap.info.length, isMember: snap.isMember, fileNames: (blob) => (snap.byBlob.has(blob) ? snap.fileNames(blob) : undefined) };
  }

}

/**
 * Segments an index run may append past MAX_SEGMENTS before it must write the set whole first: the run compacts
 * after the commit is searchable, so only runs killed before that (or a store no run compacts) pile up to here.
 */
const LATE_SEGMENTS = MAX_SEGMENTS;

/** Below this many chunks a segment is always small enough (a commit's), whatever the snapshot it extends. */
const SMALL_SEGMENT = 2000;

/** Removes a snapshot and every segment beside it. */
function removeSnapshot(file: string): void {
  fs.rmSync(file, { force: true });
  const dir = path.dirname(file);
  if (fs.existsSync(dir)) for (const name of fs.readdirSync(dir)) if (isSegmentOf(file, name)) fs.rmSync(path.join(dir, name), { force: true });
}

