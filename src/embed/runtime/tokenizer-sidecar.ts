import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import zlib from 'node:zlib';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { cacheRoot } from '../../config/environment.js';
import { cjkTail } from './cjk-pieces.js';

/**
 * A Unigram tokenizer.json is mostly its vocabulary: with the Chinese words the default model's is 1.2 MB, and
 * parsing its 38,000 [piece, score] pairs took ~25–55 ms of every search process (measured: 10 ms for the
 * English-only 0.24 MB file). The sidecar keeps the same vocabulary as two strings of pieces (those before the
 * CJK-only tail, and the tail) and a float64 column, read in a few ms; it is trusted only for the exact bytes it
 * was made from (their sha256, ~3 ms: a copy with preserved times may round the mtime, and a size alone can stay
 * the same).
 */
const SUFFIX = '.ocrag-vocab2';
const MAGIC = 'ocrag-vocab-2';

interface SidecarHeader {
  magic: string;
  sha256: string;
  count: number;
  /** Pieces before the vocabulary's final run of CJK-only ones (cjk-pieces.ts), and their bytes. */
  headCount: number;
  headBytes: number;
  tailBytes: number;
  minScore: number;
  /** CRC-32 of everything after the header: the tail is split only when first needed, so it is checked up front. */
  crc: number;
  /** tokenizer.json without `model.vocab`. */
  rest: Record<string, unknown>;
}

/**
 * A Unigram vocabulary as columns: what the tokenizer set-up needs, without 38,000 small arrays. The default
 * model's 30,000 Chinese pieces end its vocabulary; text without a CJK character never needs them, and splitting
 * them into strings at every start was ~6-9 ms of a one-shot search (and garbage to collect): `all` splits them
 * when first called.
 */
export interface VocabColumns {
  /** Every piece's score, by id. */
  scores: Float64Array;
  /** The pieces before the vocabulary's final run of CJK-only ones, by id. */
  head: string[];
  /** Every piece, by id. */
  all: () => string[];
  minScore: number;
}

export interface TokenizerFile {
  json: Record<string, unknown>;
  /** Present when read from the sidecar; then `json.model.vocab` is built only if something reads it. */
  columns?: VocabColumns;
}

/**
 * The parsed tokenizer.json of `file`, through its sidecar when one is current. The builder writes it next to the
 * file; for another folder it is written there on first read, or into the cache where the folder is read-only.
 */
export function readTokenizerFile(file: string): TokenizerFile {
  const bytes = readFileSync(file);
  const digest = sha256(bytes);
  const places = sidecarPlaces(file);
  for (const place of places) {
    const cached = readSidecar(place, digest);
    if (cached) return cached;
  }
  const json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  for (const place of places) if (writeSidecar(place, digest, json)) break;
  return { json };
}

/** Written by the model builder right after tokenizer.json, so loading the model never writes into its folder. */
export function writeTokenizerSidecar(file: string): void {
  const bytes = readFileSync(file);
  writeSidecar(file + SUFFIX, sha256(bytes), JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function sidecarPlaces(file: string): string[] {
  const slot = createHash('sha256').update(file).digest('hex').slice(0, 16);
  return [file + SUFFIX, join(cacheRoot(), 'sidecars', slot, basename(file) + SUFFIX)];
}

function readSidecar(sidecar: string, digest: string): TokenizerFile | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(sidecar);
  } catch {
    return null;
  }
  try {
    const headerBytes = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerBytes)) as SidecarHeader;
    if (header.magic !== MAGIC || header.sha256 !== digest) return null;
    const headStart = 4 + headerBytes;
    const tailStart = headStart + header.headBytes;
    const scoresStart = tailStart + header.tailBytes;
    if (bytes.length !== scoresStart + header.count * 8 || zlib.crc32(bytes.subarray(headStart)) !== header.crc) return null;
    const head = splitPieces(bytes.toString('utf8', headStart, tailStart), header.headCount);
    if (head.length !== header.headCount) return null;
    const scores = new Float64Array(bytes.buffer.slice(bytes.byteOffset + scoresStart, bytes.byteOffset + scoresStart + header.count * 8));
    let all: string[] | undefined;
    const allPieces = () => {
      if (all) return all;
      const tail = splitPieces(bytes.toString('utf8', tailStart, scoresStart), header.count - header.headCount);
      if (head.length + tail.length !== header.count) throw new Error(`${sidecar}: ${head.length + tail.length} pieces, not ${header.count}`);
      return (all = [...head, ...tail]);
    };
    let vocab: [string, number][] | undefined;
    const model = Object.defineProperty({ ...(header.rest.model as Record<string, unknown>) }, 'vocab', {
      enumerable: true,
      get: () => (vocab ??= allPieces().map((piece, i) => [piece, scores[i]])),
    });
    return { json: { ...header.rest, model }, columns: { scores, head, all: allPieces, minScore: header.minScore } };
  } catch {
    return null;
  }
}

/** `count` pieces joined by newlines (none holds one). */
function splitPieces(text: string, count: number): string[] {
  return count === 0 ? [] : text.split('\n');
}

/** Best effort (true when written): where no sidecar can be written, the JSON is parsed each time. */
function writeSidecar(sidecar: string, digest: string, json: Record<string, unknown>): boolean {
  const model = json.model as { type?: string; vocab?: unknown } | undefined;
  if (model?.type !== 'Unigram' || !Array.isArray(model.vocab)) return true;
  const vocab = model.vocab as [string, number][];
  if (!vocab.every((e) => Array.isArray(e) && typeof e[0] === 'string' && !e[0].includes('\n') && typeof e[1] === 'number')) return true;
  const pieces = vocab.map(([piece]) => piece);
  const headCount = cjkTail(pieces);
  const head = Buffer.from(pieces.slice(0, headCount).join('\n'), 'utf8');
  const tail = Buffer.from(pieces.slice(headCount).join('\n'), 'utf8');
  const scores = Buffer.from(Float64Array.from(vocab, ([, score]) => score).buffer);
  const body = Buffer.concat([head, tail, scores]);
  const minScore = vocab.reduce((min, [, score]) => Math.min(min, score), Infinity);
  if (!Number.isFinite(minScore)) return true;
  const { vocab: _dropped, ...modelRest } = model;
  const header: SidecarHeader = { magic: MAGIC, sha256: digest, count: vocab.length, headCount, headBytes: head.length, tailBytes: tail.length, minScore, crc: zlib.crc32(body), rest: { ...json, model: modelRest } };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length, 0);
  try {
    writeFileAtomic(sidecar, Buffer.concat([length, headerBytes, body]));
    return true;
  } catch {
    return false;
  }
}
