import fs from 'node:fs';
import { OcragError, REBUILD } from '../util/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import type { IndexIdentity, ModelIdentity } from './identity.js';

/**
 * The layout of the tables: 2 keeps each distinct chunk content once (chunk references and contents apart); 1 was
 * one table of whole chunks, which an index run upgrades in place. An older ocrag refuses a store of format 2 as
 * damaged rather than write its own layout into it.
 */
export const STORE_FORMAT = 2;

/** The store's record of its identity: every vector in it comes from this model and this chunker. */
export interface StoreMeta extends IndexIdentity {
  format: 1 | typeof STORE_FORMAT;
  /** When this record was written: names the store's generation, which search caches of its rows belong to. */
  createdAt: string;
  /**
   * How the store's texts were read from bytes: 2 reads files saved in GBK as Chinese (text/legacy-encoding.ts);
   * absent, a store from before, whose GBK files an index run reads again once (index/misread-text.ts).
   */
  decoding?: number;
}

/** The `decoding` of a store this ocrag writes. */
export const TEXT_DECODING = 2;

/** Whether the store's texts were read from bytes as an earlier version read them (index/misread-text.ts says what follows). */
export function readsTextAsBefore(meta: StoreMeta | null): boolean {
  return meta !== null && (meta.decoding ?? 1) < TEXT_DECODING;
}

export function readMeta(file: string): StoreMeta | null {
  if (!fs.existsSync(file)) return null;
  try {
    const meta = JSON.parse(fs.readFileSync(file, 'utf8')) as StoreMeta;
    if ((meta.format !== 1 && meta.format !== STORE_FORMAT) || typeof meta.modelId !== 'string' || !(meta.dim > 0)) throw new Error('bad fields');
    return meta;
  } catch {
    throw new OcragError(`the index is damaged (${file} is unreadable): run "ocrag index --rebuild"`, 'index', REBUILD);
  }
}

export function writeMeta(file: string, meta: StoreMeta): void {
  writeFileAtomic(file, JSON.stringify(meta, null, 2) + '\n');
}

/** Vectors of two models never mix: a different model needs a rebuild the user asks for. */
export function assertSameModel(meta: StoreMeta, model: ModelIdentity): void {
  const { modelId, dim } = model;
  if (meta.modelId !== modelId || meta.dim !== dim) {
    throw new OcragError(
      `the index was built with model "${meta.modelId}" (${meta.dim}-d) but the configured model is "${modelId}" (${dim}-d): run "ocrag index --rebuild" to re-embed with the new model, or select the old one with --model`,
      'index',
      REBUILD,
    );
  }
}
