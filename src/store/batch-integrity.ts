import { isUtf8 } from 'node:buffer';
import type { Data, RecordBatch } from './arrow.js';
import { ArtifactError, StoreDamageError } from '../util/errors.js';
import { contentKeyProblem, vectorProblem } from './row-integrity.js';
import { keysOfBytes } from './content-key.js';
import { utf8BytesOfData } from './chunk-batch.js';
import { COLUMN } from './chunk-columns.js';

/**
 * What a batch read back from a store must satisfy, column by column, before anything above the store sees it:
 * ids, blobs and content keys are hex digests, spans are lines, languages are names, search words are words, each
 * content key names its breadcrumb and text, each vector is finite and unit length (row-integrity.ts). A damaged
 * data file reads as rows that fail one of these (a garbled one gave vectors of length 1e29), so damage is an
 * error with its fix, never a different answer. Only the columns a read carries are checked: each reader pays for
 * what it reads.
 */

/** Hex digests of these lengths: chunk ids and content keys are 40, blobs 40 (SHA-1) or 64 (SHA-256). */
const DIGEST_LENGTHS: Record<string, number[]> = { id: [40], content_key: [40], blob: [40, 64] };
/** A language name as chunk/languages.ts writes them (`rust`, `c_sharp`, `c++`, `go_mod`). */
const LANGUAGE = /^[a-z][a-z0-9_+#.-]{0,39}$/;
/** Lines are counted from 1; no blob the index reads has 100 million of them (share/chunk-rows.ts refuses more). */
const MAX_LINE = 100_000_000;

// ignoreBOM: a stored text may begin with U+FEFF (a file with two byte-order marks); decoded, it must stay.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Tables named by a URI (`s3://…`) are a team's remote store, anything else this index's own folder. */
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Throws when a row of this batch read from the tables at `where` is damaged: StoreDamageError (exit 4, "run
 * ocrag index --rebuild") for this index's own store, ArtifactError (exit 4, refused) for a remote store, which
 * no rebuild here repairs.
 */
export function checkStoredBatch(batch: RecordBatch, where: string): void {
  const problem = storedBatchProblem(batch);
  if (!problem) return;
  if (REMOTE.test(where)) throw new ArtifactError(`the remote store ${where} is not usable: a stored chunk ${problem}: refused`);
  throw new StoreDamageError(where, `a stored chunk ${problem}`);
}

/** Why a row of this batch cannot be one a writer stored, or null. */
export function storedBatchProblem(batch: RecordBatch): string | null {
  const data = (name: string): Data | undefined => batch.getChild(name)?.data[0];
  for (const [name, lengths] of Object.entries(DIGEST_LENGTHS)) {
    const column = data(name);
    const bad = column ? badDigest(column, lengths) : -1;
    if (bad >= 0) return `has ${name} "${printable(stringAt(column!, bad))}", not a hex digest`;
  }
  const [starts, ends] = [data(COLUMN.startLine), data(COLUMN.endLine)];
  for (let row = 0; starts && ends && row < batch.numRows; row++) {
    const [start, end] = [(starts.values as Int32Array)[row], (ends.values as Int32Array)[row]];
    if (!(start >= 1 && start <= end && end <= MAX_LINE)) return `has lines ${start}-${end}`;
  }
  const language = data(COLUMN.language);
  for (let row = 0; language && row < batch.numRows; row++) {
    const name = stringAt(language, row);
    if (!LANGUAGE.test(name)) return `has language "${printable(name)}"`;
  }
  const terms = data(COLUMN.terms);
  const badWords = terms ? badTerms(terms) : -1;
  if (badWords >= 0) return `has search words "${printable(stringAt(terms!, badWords))}"`;
  const [key, symbol, text] = [data(COLUMN.contentKey), data(COLUMN.symbol), data(COLUMN.text)];
  // Hashed from the bytes (decoding every text cost more than hashing it); a key that differs is told as before.
  const keyOf = key && symbol && text ? keysOfBytes([utf8BytesOfData(symbol), utf8BytesOfData(text)], (row) => [stringAt(symbol, row), stringAt(text, row)]) : null;
  for (let row = 0; keyOf && row < batch.numRows; row++) {
    if (keyOf(row) === stringAt(key!, row)) continue;
    const problem = contentKeyProblem(stringAt(symbol!, row), stringAt(text!, row), stringAt(key!, row));
    if (problem) return problem;
  }
  const vectors = data(COLUMN.vector);
  if (vectors) {
    const dim = (vectors.type as unknown as { listSize: number }).listSize;
    const child = vectors.children[0];
    const values = child.values as Float32Array;
    for (let row = 0; row < batch.numRows; row++) {
      const problem = vectorProblem(values, row * dim, dim);
      if (problem) return problem;
    }
  }
  return null;
}

/** The first row whose value is not lower-case hex of one of these lengths, or -1 (checked on the bytes: no decoding). */
function badDigest(column: Data, lengths: number[]): number {
  const offsets = column.valueOffsets;
  const bytes = column.values as Uint8Array;
  for (let row = 0; row < column.length; row++) {
    const [from, to] = [offsets[row], offsets[row + 1]];
    if (!lengths.includes(to - from)) return row;
    for (let i = from; i < to; i++) {
      const c = bytes[i];
      if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return row;
    }
  }
  return -1;
}

/** A damaged value as one line of plain characters, 70 at most (what is not printable ASCII shows as `?`). */
function printable(value: string): string {
  const shown = value.slice(0, 70).replace(/[^\x20-\x7e]/g, '?').replace(/"/g, "'");
  return value.length > 70 ? `${shown}…` : shown;
}

/**
 * The first row whose search words are not what text/terms.ts writes, or -1: lower-case ASCII words of
 * `[a-z0-9_]` and CJK bigrams, space-separated. They are a function of the text, but working them out again costs
 * as much as the load (Chinese is cut by a dictionary): their alphabet is checked instead, on the bytes, which
 * random damage leaves only with odds of 0.64 a byte.
 */
function badTerms(column: Data): number {
  const offsets = column.valueOffsets;
  const bytes = column.values as Uint8Array;
  for (let row = 0; row < column.length; row++) {
    const [from, to] = [offsets[row], offsets[row + 1]];
    if (!(from <= to && to <= bytes.length)) return row;
    let wide = false;
    for (let i = from; i < to; i++) {
      const c = bytes[i];
      if (c >= 0x80) wide = true;
      else if (!(c === 32 || c === 95 || (c >= 48 && c <= 57) || (c >= 97 && c <= 122))) return row;
    }
    if (wide && !isUtf8(bytes.subarray(from, to))) return row;
  }
  return -1;
}

function stringAt(column: Data, row: number): string {
  return decoder.decode((column.values as Uint8Array).subarray(column.valueOffsets[row], column.valueOffsets[row + 1]));
}
