import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexLayout } from '../../store/layout.js';

/**
 * Which rows from outside are checked by the expensive means, cutting the blob again with the parser and embedding
 * its contents again. Every row gets the cheap checks (its text against its blob, words, vector length); these two
 * cost ~2 ms a blob (tree-sitter, tokio's Rust) and ~0.3 ms a content (the default model on 2 cores), as much as
 * indexing, so they run on a sample. The sample is keyed by a secret of this machine's index: the same index picks
 * the same rows again, and whoever made the artifact or the remote cannot tell which of its rows will be looked at.
 */
export interface SamplePlan {
  /** Share of the blobs whose rows are cut again (spans, breadcrumbs, texts) and embedded again (vectors, words). */
  rate: number;
  /** At least this many blobs are, so a small import is checked whole. */
  floor: number;
}

/**
 * 5 % of blobs, at least 32: on tokio (861 blobs, 14,778 chunks) 43 blobs, ~45 cut with tree-sitter and ~700
 * contents embedded on this thread, ~0.8 s of CPU at load 13 where the import alone takes ~2.4 s and indexing ~11
 * s. A tampered row escapes with probability 0.95 per tampered blob: 10 forged vectors in different files are
 * caught 40 % of the time, 100 of them 99.4 %; a repository of up to 32 blobs is checked whole. Every row's text
 * is checked whatever the sample, and every breadcrumb's words (blob-truth.ts), so what the sample leaves to
 * chance is which of a blob's own words name a chunk, and where a vector or the search words point.
 */
export const IMPORT_SAMPLE: SamplePlan = { rate: 0.05, floor: 32 };

/** Everything: `ocrag doctor --verify`. */
export const EVERY_ROW: SamplePlan = { rate: 1, floor: 0 };

/** What is checked of one blob beyond its text: cut again, and embedded again. */
export interface BlobSample {
  chunks: boolean;
  vectors: boolean;
}

const NOT_SAMPLED: BlobSample = { chunks: false, vectors: false };
const WHOLE: BlobSample = { chunks: true, vectors: true };

const KEY_BYTES = 32;

/** The index's secret, and how to keep it once what it chose was accepted. */
export interface VerificationKey {
  bytes: Buffer;
  /** Writes a new key into the index folder (32 random bytes, readable by the owner alone); a no-op when it was read from there. */
  save(): void;
}

/**
 * The index's secret. A new one is kept only once rows it sampled were accepted, so a refused import leaves no
 * trace; a key file that is not exactly 32 bytes of a plain file (cut short, replaced by a link) is made again:
 * the sample only needs to be unknown to others.
 */
export function verificationKey(layout: Pick<IndexLayout, 'dir' | 'verifyKey'>): VerificationKey {
  try {
    const stat = fs.lstatSync(layout.verifyKey);
    if (stat.isFile() && stat.size === KEY_BYTES) return { bytes: fs.readFileSync(layout.verifyKey), save: () => undefined };
  } catch {
    // None yet.
  }
  const bytes = randomBytes(KEY_BYTES);
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    fs.mkdirSync(layout.dir, { recursive: true });
    const tmp = path.join(layout.dir, `verify-key.${process.pid}.tmp`);
    fs.writeFileSync(tmp, bytes, { mode: 0o600 });
    fs.renameSync(tmp, layout.verifyKey);
  };
  return { bytes, save };
}

/** A value in [0, 1) that only the key's holder can compute for `id`. */
export function keyedRank(key: Buffer, id: string): number {
  const mac = createHmac('sha256', key).update(id).digest();
  return mac.readUInt32BE(0) / 0x1_0000_0000;
}

/**
 * The sample of these blobs under `plan`: a blob whose keyed rank is below the rate, and the `floor` lowest ranks
 * whatever the rate. Deterministic for one key and set of blobs, whatever order they come in.
 */
export function sampleBlobs(key: Buffer | null, blobs: Iterable<string>, plan: SamplePlan): (blob: string) => BlobSample {
  if (plan.rate >= 1) return () => WHOLE;
  if (!key) throw new Error('a sample needs the verification key');
  const ranked = [...new Set(blobs)].map((blob) => ({ blob, rank: keyedRank(key, blob) })).sort((a, b) => a.rank - b.rank);
  const chosen = new Set(ranked.filter(({ rank }, i) => i < plan.floor || rank < plan.rate).map(({ blob }) => blob));
  return (blob) => (chosen.has(blob) ? WHOLE : NOT_SAMPLED);
}

/** As sampleBlobs for contents arriving one group at a time (a remote's vectors): the first `floor` asked, then the rate. */
export function contentSampler(key: Buffer, rate: number, floor: number): (contentKey: string) => boolean {
  let seen = 0;
  return (contentKey) => seen++ < floor || keyedRank(key, contentKey) < rate;
}
