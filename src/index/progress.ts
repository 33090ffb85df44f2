/** What an index run is doing, in the order a run does it (reading and chunking overlap embedding and writing). */
export type IndexPhase = 'listing' | 'reading' | 'chunking' | 'embedding' | 'writing' | 'search-index';

/** What an index run has done so far, reported as it goes (see IndexPhase). */
export interface BlobProgress {
  phase: IndexPhase;
  /** Blobs durably stored (their chunks committed, or marked as yielding none), of the blobs this run has to store. */
  blobsDone: number;
  blobsTotal: number;
  /** Blobs read and chunked so far (ahead of blobsDone: their chunks wait in a group). */
  blobsChunked?: number;
  /** Blobs embedded so far, a fraction while a group is half embedded; between blobsDone and blobsChunked. */
  blobsEmbedded?: number;
  /** Chunks durably stored. */
  chunks: number;
  /** Chunks stored a second over the last RATE_WINDOW_MS; null in a phase that stores none (listing, search-index). */
  chunksPerSecond: number | null;
  /** Seconds until the last blob is stored, at the recent rate; null before anything is stored and outside storing. */
  secondsLeft?: number | null;
  /** What the run found worth telling though it goes on (it selected no files, say). */
  warnings?: string[];
}

/**
 * How far a run is, 0..100, from the same counts it shows: listing takes the first 2 %, the blobs durably stored
 * 2..95 %, building the search indexes 95..99 %; only the run's end says 100. Work chunked or embedded but not yet
 * written does not count, so the percent never runs ahead of the files and chunks shown beside it.
 */
export function progressPercent(p: BlobProgress): number {
  if (p.phase === 'listing') return 0;
  if (p.phase === 'search-index') return 95;
  if (p.blobsTotal === 0) return 2;
  return Math.min(95, Math.floor(2 + (93 * p.blobsDone) / p.blobsTotal));
}

/** The rate is measured over about this long: long enough to span a few writes, short enough to follow a slowdown. */
const RATE_WINDOW_MS = 10_000;

interface Sample {
  at: number;
  blobs: number;
  chunks: number;
}

/** Chunks a second and the time left, from the durable writes of the last RATE_WINDOW_MS (not the run's average). */
export class StoreRate {
  private readonly samples: Sample[];

  constructor(now = performance.now()) {
    this.samples = [{ at: now, blobs: 0, chunks: 0 }];
  }

  /** Notes a durable write: `blobs` and `chunks` stored so far. */
  stored(blobs: number, chunks: number, now = performance.now()): void {
    this.samples.push({ at: now, blobs, chunks });
  }

  /** The recent rate, and the seconds left for `blobsTotal` at it (null until something is stored). */
  at(blobsTotal: number, now = performance.now()): { chunksPerSecond: number; secondsLeft: number | null } {
    // The baseline is the newest sample at least a window old (else the start), so the window always spans a write.
    while (this.samples.length > 2 && this.samples[1]!.at <= now - RATE_WINDOW_MS) this.samples.shift();
    const base = this.samples[0]!;
    const last = this.samples[this.samples.length - 1]!;
    const seconds = (now - base.at) / 1000;
    if (seconds <= 0) return { chunksPerSecond: 0, secondsLeft: null };
    const blobsPerSecond = (last.blobs - base.blobs) / seconds;
    return {
      chunksPerSecond: (last.chunks - base.chunks) / seconds,
      secondsLeft: blobsPerSecond > 0 ? Math.ceil((blobsTotal - last.blobs) / blobsPerSecond) : null,
    };
  }
}
