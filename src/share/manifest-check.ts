import { parseMarkReason } from '../store/blob-state.js';
import type { BlobMark } from '../store/contract.js';
import type { Manifest } from '../store/manifest.js';
import { keyBytes } from '../git/path-key.js';
import { listTree, type TreeEntry } from '../git/tree.js';
import { selectFiles } from '../index/select.js';
import type { Config } from '../config/config.js';
import { git } from '../git/run.js';
import { ArtifactError } from '../util/errors.js';
import { isObjectId } from '../git/object-id.js';
import { shown } from '../util/shown.js';
import { ENTRY, parseJson, type ArtifactHeader } from './format.js';

/** Skip reasons and mark reasons are short lowercase words ("binary", "lfs pointer"); anything else is refused. */
const REASON = /^[a-z][a-z -]{0,31}$/;

/**
 * Checks the artifact's manifest: its shape, that it describes the header's commit, model and chunker, and
 * that every path is a plain relative path. Paths matter beyond display: the working-tree overlay reads files
 * at manifest paths, so a "../" path could make ocrag read and index a file outside the repository.
 */
export function parseArtifactManifest(body: Buffer, header: ArtifactHeader): Manifest {
  const m = parseJson(body, ENTRY.manifest) as Partial<Manifest>;
  const bad = (what: string): never => {
    throw new ArtifactError(`artifact manifest is invalid: ${what}`);
  };
  if (m.version !== 1) bad(`unsupported manifest version ${shown(String(m.version))}`);
  if (m.commit !== header.commit || m.tree !== header.tree) bad('its commit or tree differs from the header');
  if (m.modelId !== header.modelId || m.chunkerVersion !== header.chunkerVersion) bad('its model or chunker differs from the header');
  if (!(m.branch === null || typeof m.branch === 'string') || typeof m.selectionKey !== 'string' || typeof m.indexedAt !== 'string') bad('missing fields');
  for (const field of ['files', 'skipped', 'skippedBlobs'] as const) {
    const value = m[field];
    if (!value || typeof value !== 'object' || Array.isArray(value)) bad(`"${field}" is not an object`);
  }
  for (const [p, blob] of Object.entries(m.files!)) {
    if (!isPlainPath(p)) bad(`unsafe path ${shown(p)}`);
    if (!isObjectId(blob)) bad(`path ${shown(p)} maps to an invalid blob id`);
  }
  for (const [p, reason] of Object.entries(m.skipped!)) {
    if (!isPlainPath(p)) bad(`unsafe path ${shown(p)}`);
    if (typeof reason !== 'string' || !REASON.test(reason)) bad(`path ${shown(p)} has an invalid skip reason`);
  }
  for (const [p, blob] of Object.entries(m.skippedBlobs!)) {
    if (!(p in m.skipped!)) bad(`skipped blob of ${shown(p)} without a skip reason`);
    if (!isObjectId(blob)) bad(`path ${shown(p)} maps to an invalid blob id`);
  }
  return m as Manifest;
}

/**
 * A repository-relative path as git stores it, keyed as this version keys it (`git/path-key.ts`: a quoted key must be
 * git's own form, so `\057` cannot hide a "/"): no leading "/", no empty, "." or ".." segments.
 */
export function isPlainPath(p: string): boolean {
  // 4096 bytes (Linux's PATH_MAX) of the name itself: its quoted key may be up to four times as long.
  const bytes = p.length <= 4 * 4096 + 2 ? keyBytes(p) : null;
  if (!bytes || bytes.length > 4096) return false;
  // The name's own bytes, one character each, are judged: a quoted key's `"../x\377"` hides its ".." behind a quote.
  const name = bytes.toString('latin1');
  if (name.includes('\0') || name.startsWith('/')) return false;
  // A backslash is an ordinary name character for git, but a separator on Windows: no ".." either way.
  if (name.split(/[\\/]/).includes('..')) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.');
}

/** Every blob of the manifest: indexed files and files skipped for their content. */
export function manifestBlobs(m: Manifest): Set<string> {
  return new Set([...Object.values(m.files), ...Object.values(m.skippedBlobs)]);
}

/** Parses marks.jsonl: one {"blob","reason"} per line, each for a blob of the manifest. */
export function parseMarks(body: Buffer, blobs: Set<string>): BlobMark[] {
  const marks: BlobMark[] = [];
  const lines = body.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    let mark: { blob?: unknown; reason?: unknown };
    try {
      mark = JSON.parse(lines[i]) as { blob?: unknown; reason?: unknown };
    } catch {
      throw new ArtifactError(`artifact entry ${ENTRY.marks}, line ${i + 1}: not JSON`);
    }
    if (!isObjectId(mark.blob) || !blobs.has(mark.blob) || typeof mark.reason !== 'string' || !REASON.test(mark.reason)) {
      throw new ArtifactError(`artifact entry ${ENTRY.marks}, line ${i + 1}: not a mark of a blob in the manifest`);
    }
    marks.push({ blob: mark.blob, reason: parseMarkReason(mark.reason) });
  }
  return marks;
}

/** A commit's tree as this repository has it: path → blob, and its entries as listed. */
export interface CommitTree {
  tree: string;
  blobAt: Map<string, string>;
  entries: TreeEntry[];
}

/** The tree of `commit` here, or null when the commit is not in this repository (not fetched yet). */
export async function commitTree(root: string, commit: string): Promise<CommitTree | null> {
  const tree = await git(['rev-parse', '--verify', '--quiet', `${commit}^{tree}`], { cwd: root, okCodes: [1, 128] });
  if (!tree) return null;
  const entries = await listTree(root, tree);
  return { tree, blobAt: new Map(entries.map((e) => [e.path, e.blob])), entries };
}

/**
 * When the artifact's commit exists here, its manifest must agree with git: same tree, and every path at the
 * blob the tree has. (A commit not fetched yet can't be checked; its manifest then only names blobs the
 * artifact itself carries.)
 */
export function checkAgainstRepository(manifest: Manifest, here: CommitTree | null): 'checked' | 'commit not present' {
  if (!here) return 'commit not present';
  const commit = manifest.commit.slice(0, 8);
  if (here.tree !== manifest.tree) throw new ArtifactError(`artifact says commit ${commit} has tree ${manifest.tree.slice(0, 8)}, but here it has ${here.tree.slice(0, 8)}`);
  for (const [p, blob] of [...Object.entries(manifest.files), ...Object.entries(manifest.skippedBlobs)]) {
    if (here.blobAt.get(p) !== blob) throw new ArtifactError(`artifact manifest maps ${shown(p)} to a blob that commit ${commit} does not have there`);
  }
  for (const p of Object.keys(manifest.skipped)) {
    if (!here.blobAt.has(p)) throw new ArtifactError(`artifact manifest lists ${shown(p)}, which commit ${commit} does not have`);
  }
  return 'checked';
}

/**
 * When the artifact was made with this repository's settings (same selection key), its manifest must select what
 * they select: every path they skip skipped for the same reason, every file they index listed (as a file, or as
 * a blob that yields no chunks, whose mark the rows' check holds to the blob). Else a manifest could hide a
 * source file from every search by calling it excluded.
 */
export function checkSelection(manifest: Manifest, here: CommitTree, config: Config): void {
  const selection = selectFiles(here.entries, config);
  for (const { path, reason } of selection.skipped) {
    if (manifest.skipped[path] !== reason) throw new ArtifactError(`artifact manifest does not skip ${shown(path)} as this repository's settings do (${reason})`);
  }
  for (const { path } of selection.files) {
    if (!(path in manifest.files) && !(path in manifest.skippedBlobs)) throw new ArtifactError(`artifact manifest leaves out ${shown(path)}, which this repository's settings index`);
  }
}
