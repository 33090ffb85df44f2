import { createHash } from 'node:crypto';
import { countChunksOf, isLargeStore, LARGE_VIEW_CHUNKS } from '../store/large-store.js';
import type { StoreHandle } from '../store/store-handle.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { readJson } from '../util/json-file.js';
import type { ResidentChunks } from './resident.js';

const decided = new WeakMap<object, { resident: ResidentChunks; fits: Promise<boolean> }>();

/**
 * Whether the view of these blobs is searched in memory, exactly, over every one of its chunks: always in a store
 * without search indexes (no view indexed in it was large), else while its chunks stay under LARGE_VIEW_CHUNKS.
 * Decided once per view object (`key`) and resident set: a blob's chunks never change within a store's incarnation.
 */
export function fitsInMemory(store: StoreHandle, resident: ResidentChunks, key: object, blobs: Iterable<string>): Promise<boolean> {
  if (!isLargeStore(store.layout)) return Promise.resolve(true);
  const known = decided.get(key);
  if (known?.resident === resident) return known.fits;
  const fits = decide(store, resident, [...blobs]);
  decided.set(key, { resident, fits });
  // A failed count is not kept: the next search asks again (this one reports it).
  fits.catch(() => {
    if (decided.get(key)?.fits === fits) decided.delete(key);
  });
  return fits;
}

async function decide(store: StoreHandle, resident: ResidentChunks, blobs: string[]): Promise<boolean> {
  const large = new LargeViews(store, blobs);
  if (large.known()) return false;
  const fits = (await countViewChunks(store, resident, blobs, LARGE_VIEW_CHUNKS)) < LARGE_VIEW_CHUNKS;
  if (!fits) large.remember();
  return fits;
}

/**
 * The blobs the resident set holds are counted there (free once a view was searched in memory), the rest by the
 * store, up to `limit`.
 */
async function countViewChunks(store: StoreHandle, resident: ResidentChunks, blobs: string[], limit: number): Promise<number> {
  resident.restoreSnapshot();
  let count = 0;
  const unknown = new Set<string>();
  for (const blob of blobs) {
    const n = resident.chunkCountOf(blob);
    if (n === undefined) unknown.add(blob);
    else count += n;
  }
  if (count >= limit || unknown.size === 0) return count;
  return count + (await countChunksOf(await store.get(), unknown, limit - count));
}

/** Views remembered as large, the latest last. */
const REMEMBERED_VIEWS = 32;

/**
 * Views found large, remembered between processes (IndexLayout.largeViews): a one-shot search of a large view
 * would otherwise read up to LARGE_VIEW_CHUNKS rows' blob names again to learn what the last search learnt
 * (measured on a 320k-row table: 30–60 ms when the view is most of the store, 160–300 ms when it is a fifth).
 * Keyed by the store's incarnation, the budget and the view's blobs. A cache: lost or torn, the next search
 * counts again.
 */
class LargeViews {
  private readonly digest: string;

  constructor(private readonly store: StoreHandle, blobs: string[]) {
    this.digest = createHash('sha256').update(`${store.generation}\n${LARGE_VIEW_CHUNKS}\n${blobs.join('\n')}`).digest('hex').slice(0, 32);
  }

  known(): boolean {
    return this.read().includes(this.digest);
  }

  remember(): void {
    const views = [...this.read().filter((v) => v !== this.digest), this.digest].slice(-REMEMBERED_VIEWS);
    try {
      writeFileAtomic(this.store.layout.largeViews, JSON.stringify({ views }) + '\n', { durable: false });
    } catch {
      // Only the next search's time is at stake.
    }
  }

  private read(): string[] {
    const views = readJson<{ views?: unknown }>(this.store.layout.largeViews)?.views;
    return Array.isArray(views) ? views.filter((v): v is string => typeof v === 'string') : [];
  }
}
