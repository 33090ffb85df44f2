// The chunk references of contents, as a search through the store's indexes joins them to its hits.
import type * as lancedb from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import { isObjectId } from '../../git/object-id.js';
import { checkStoredBatch } from '../batch-integrity.js';
import type { RowRef } from './arrow-take.js';
import { keyFilters } from './blob-filter.js';
import { KEY, REF_COLUMNS } from './chunk-arrow.js';

/** The references of these contents, each content's in the order they were added. */
export async function refsOfKeys(refs: lancedb.Table, where: string, keys: string[]): Promise<Map<string, RowRef[]>> {
  const out = new Map<string, RowRef[]>();
  for (const filter of keyFilters(new Set(keys), 2000)) {
    for await (const batch of refs.query().where(filter).select([...REF_COLUMNS, KEY])) addRefs(out, batch as unknown as RecordBatch, where);
  }
  return out;
}

function addRefs(out: Map<string, RowRef[]>, batch: RecordBatch, where: string): void {
  checkStoredBatch(batch, where);
  const col = batch.getChild(KEY)!;
  for (let row = 0; row < batch.numRows; row++) {
    const key = col.get(row) as string;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push({ batch, row });
  }
}

/**
 * A long-lived process's searches of a large store ask for ~300 contents' references each: a look-up by key scans
 * the references table, a serial step after the vector and text queries (sympy, 52,200 chunks, load 10: 15 ms
 * of a 60 ms search). From its second search on, the references are read once, in the order a look-up lists
 * them (both scan the table in order), and answered from memory (~15 MB for 52,000 chunks) while the table's
 * version (this handle sees only its own writes) stays the one read. A one-shot search never reads them all,
 * however often it widens its window.
 * A read that fails (a damaged row anywhere) is not kept: look-ups go on, and report damage where they meet it.
 */
export class RefsByKey {
  private held: { version: number; refs: Map<string, RowRef[]> | null } | null = null;
  private searches = 0;
  /** The smallest window asked for: a search begins with it, and asks again only with wider ones. */
  private firstWindow = Infinity;
  private reading: Promise<void> = Promise.resolve();

  constructor(readonly table: lancedb.Table, private readonly where: string) {}

  /** The references of these contents, found among the `window` best hits of a query. */
  async of(keys: string[], window: number): Promise<Map<string, RowRef[]>> {
    // A search that widens its window (too few of its view's chunks came back) is still one search.
    if (window <= this.firstWindow) {
      this.firstWindow = window;
      this.searches++;
    }
    const version = await this.table.version();
    if (this.held && this.held.version !== version) this.held = null;
    const refs = this.held?.refs;
    if (refs) {
      const out = new Map<string, RowRef[]>();
      for (const key of keys) {
        const list = isObjectId(key) ? refs.get(key) : undefined;
        if (list) out.set(key, list);
      }
      return out;
    }
    if (!this.held && this.searches >= READ_ALL_FROM_SEARCH) this.readAll(version);
    return refsOfKeys(this.table, this.where, keys);
  }

  /** Resolves once a read of every reference begun has ended (tests wait for it). */
  whenRead(): Promise<void> {
    return this.reading;
  }

  private readAll(version: number): void {
    const held: { version: number; refs: Map<string, RowRef[]> | null } = { version, refs: null };
    this.held = held;
    this.reading = (async () => {
      const refs = new Map<string, RowRef[]>();
      for await (const batch of this.table.query().select([...REF_COLUMNS, KEY])) addRefs(refs, batch as unknown as RecordBatch, this.where);
      // Written since the read began: it may hold rows of either version.
      if ((await this.table.version()) === version) held.refs = refs;
      else if (this.held === held) this.held = null;
    })().catch(() => undefined);
  }
}

/** The references of a table, held for as long as the table (a store keeps its handle open while it is used). */
const byTable = new WeakMap<lancedb.Table, RefsByKey>();

export function refsByKeyOf(table: lancedb.Table, where: string): RefsByKey {
  let refs = byTable.get(table);
  if (!refs) byTable.set(table, (refs = new RefsByKey(table, where)));
  return refs;
}

/** The search from which the references are read whole: a one-shot search makes one. */
const READ_ALL_FROM_SEARCH = 2;
