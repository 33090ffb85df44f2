import fs from 'node:fs';
import { parseChunkerVersions } from '../chunk/version.js';
import { isObjectId } from '../git/object-id.js';
import type { IndexIdentity } from '../store/identity.js';
import { ArtifactError, OcragError } from '../util/errors.js';
import { shown } from '../util/shown.js';

/**
 * An index artifact is a plain (uncompressed) tar of files under `ocrag-index/`, in this order:
 *
 *   header.json              identity: format, ocrag version, model, chunker, commit, tree, creation time
 *   manifest.json.gz         the manifest of the commit (paths → blobs, skipped paths)
 *   marks.jsonl.gz           blobs that yield no chunks, one {"blob","reason"} per line
 *   chunks/NNNNNN.arrow.gz   chunk rows without their vectors (text, lines, symbol, terms) as one Arrow IPC stream
 *   chunks/NNNNNN.f32        the vectors of those rows, in order: rows × dim little-endian float32s
 *   trailer.json             counts, sha256 of every member above (as stored) and one over all of them
 *
 * Members are compressed one by one, and vectors not at all: float data barely compresses, and an importer that
 * had to gunzip it would spend more time on that than on anything else it reads. The digests cover the bytes as
 * stored, so `tar xf` then `sha256sum` reproduces them.
 *
 * A tar member's size precedes its bytes, so a writer that streams cannot know the digests up front: they come
 * last, as in a zip's central directory. The identity comes first, so a reader refuses the wrong model before
 * reading anything else.
 */
export const ARTIFACT_FORMAT = 'ocrag-index';
export const FORMAT_VERSION = 2;
export const ENTRY_DIR = 'ocrag-index';

export const ENTRY = {
  header: `${ENTRY_DIR}/header.json`,
  manifest: `${ENTRY_DIR}/manifest.json.gz`,
  marks: `${ENTRY_DIR}/marks.jsonl.gz`,
  trailer: `${ENTRY_DIR}/trailer.json`,
} as const;

const CHUNK_ENTRY = new RegExp(`^${ENTRY_DIR}/chunks/(\\d{6})\\.(arrow\\.gz|f32)$`);

/** The two members of chunk entry `n`: its rows' columns, then their vectors. */
export function chunkEntryNames(n: number): { columns: string; vectors: string } {
  const stem = `${ENTRY_DIR}/chunks/${String(n).padStart(6, '0')}`;
  return { columns: `${stem}.arrow.gz`, vectors: `${stem}.f32` };
}

/** Which chunk entry a member belongs to and which half of it it is; null for other members. */
export function chunkMember(name: string): { n: number; part: 'columns' | 'vectors' } | null {
  const m = CHUNK_ENTRY.exec(name);
  return m ? { n: Number(m[1]), part: m[2] === 'f32' ? 'vectors' : 'columns' } : null;
}

function isChunkEntry(name: string): boolean {
  return CHUNK_ENTRY.test(name);
}

/** Members stored gzipped; the others are stored as they are. */
export function isGzipped(name: string): boolean {
  return name.endsWith('.gz');
}

const MiB = 1024 * 1024;

/** Upper bounds checked on a member's declared size (and, when gzipped, on what it unpacks to) before reading on. */
export const LIMITS = {
  header: 64 * 1024,
  trailer: 32 * MiB,
  manifest: 256 * MiB,
  marks: 256 * MiB,
  chunkEntry: 256 * MiB,
  entries: 200_000,
  totalBytes: 64 * 1024 * MiB,
};

/** The byte limit of a member by name, stored or unpacked; unknown names are refused. */
export function sizeLimit(name: string): number | null {
  if (name === ENTRY.header) return LIMITS.header;
  if (name === ENTRY.manifest) return LIMITS.manifest;
  if (name === ENTRY.marks) return LIMITS.marks;
  if (name === ENTRY.trailer) return LIMITS.trailer;
  if (isChunkEntry(name)) return LIMITS.chunkEntry;
  return null;
}

/** Rows per chunk entry: a few MiB each, so reader and writer hold little. */
export const ROWS_PER_ENTRY = 1024;

/** The artifact's identity first: an importer refuses another model's or chunker's index before reading on. */
export interface ArtifactHeader extends IndexIdentity {
  format: typeof ARTIFACT_FORMAT;
  formatVersion: number;
  ocragVersion: string;
  commit: string;
  tree: string;
  /** Branch the index was built on (informative: the importer registers it for its own checkout). */
  branch: string | null;
  createdAt: string;
}

export interface EntryDigest {
  name: string;
  bytes: number;
  sha256: string;
}

export interface ArtifactTrailer {
  /** `entries` counts members; `bytes` is what they unpack to. */
  counts: { files: number; blobs: number; chunks: number; marks: number; entries: number; bytes: number };
  /** Each member as stored: its size and sha256. */
  entries: EntryDigest[];
  /** sha256 over the lines "<sha256>  <name>\n" of every entry before the trailer, in order (sha256sum style). */
  sha256: string;
}


/** A missing artifact is a usage error (exit 2); a bad one is an ArtifactError (exit 4). */
export function requireArtifactFile(file: string): void {
  if (!fs.existsSync(file)) throw new OcragError(`no such artifact file: ${file}`);
  if (!fs.statSync(file).isFile()) throw new OcragError(`not a file: ${file} (give the .tar file that ocrag export wrote)`);
}

/** Parses and checks header.json; the format version is checked first, as every other field depends on it. */
export function parseHeader(body: Buffer): ArtifactHeader {
  const h = parseJson(body, ENTRY.header) as Partial<ArtifactHeader>;
  if (h.format !== ARTIFACT_FORMAT) throw new ArtifactError('not an ocrag index artifact (its header does not say "ocrag-index")');
  if (h.formatVersion !== FORMAT_VERSION) {
    throw new ArtifactError(`artifact format version ${typeof h.formatVersion === 'number' ? h.formatVersion : shown(String(h.formatVersion))} is not supported (this ocrag reads version ${FORMAT_VERSION}): export it again with this ocrag version`);
  }
  const ok =
    printable(h.ocragVersion, 64) &&
    printable(h.modelId, 256) &&
    Number.isInteger(h.dim) &&
    h.dim! > 0 &&
    h.dim! <= 65536 &&
    printable(h.chunkerVersion, 1024) &&
    isObjectId(h.commit) &&
    isObjectId(h.tree) &&
    (h.branch === null || printable(h.branch, 256)) &&
    printable(h.createdAt, 64) &&
    !Number.isNaN(Date.parse(h.createdAt));
  if (!ok) throw new ArtifactError('artifact header is malformed (missing or invalid fields)');
  return h as ArtifactHeader;
}

/**
 * Refuses an artifact built with another model, dimension or base chunker version, naming which one differs. Of
 * another language's chunker it may still hold no chunks: its rows are checked for that (chunk-rows.ts).
 */
export function assertCompatible(header: ArtifactHeader, local: IndexIdentity): void {
  if (header.modelId !== local.modelId) {
    throw new ArtifactError(`artifact was built with model ${shown(header.modelId)} but the configured model is ${shown(local.modelId)}: configure that model (--model) or index locally`);
  }
  if (header.dim !== local.dim) throw new ArtifactError(`artifact vectors have ${header.dim} dimensions but the configured model ${shown(local.modelId)} has ${local.dim}`);
  if (parseChunkerVersions(header.chunkerVersion).base !== parseChunkerVersions(local.chunkerVersion).base) {
    throw new ArtifactError(`artifact was chunked by chunker version ${shown(header.chunkerVersion)} but this ocrag uses version ${local.chunkerVersion}: export it again with the same ocrag version`);
  }
}

export function parseTrailer(body: Buffer): ArtifactTrailer {
  const t = parseJson(body, ENTRY.trailer) as Partial<ArtifactTrailer>;
  const counts = t.counts as Record<string, unknown> | undefined;
  const ok =
    !!counts &&
    ['files', 'blobs', 'chunks', 'marks', 'entries', 'bytes'].every((k) => Number.isSafeInteger(counts[k]) && (counts[k] as number) >= 0) &&
    Array.isArray(t.entries) &&
    t.entries.every((e) => e && typeof e.name === 'string' && Number.isSafeInteger(e.bytes) && typeof e.sha256 === 'string') &&
    typeof t.sha256 === 'string';
  if (!ok) throw new ArtifactError('artifact trailer is malformed (missing or invalid fields)');
  return t as ArtifactTrailer;
}

/** A short string without control characters: safe to print on a terminal. */
function printable(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max && !/[\u0000-\u001f\u007f-\u009f]/.test(value);
}

export function parseJson(body: Buffer, name: string): unknown {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // Reported below with the entry's name.
  }
  throw new ArtifactError(`artifact entry ${name} is not a JSON object`);
}
