import fs from 'node:fs';
import type { Embedder } from '../embed/index.js';
import { keyFsPath } from '../git/path-key.js';
import { blobIdOf } from '../git/blob-id.js';
import type { WorkingChange } from '../git/status.js';
import type { TreeEntry } from '../git/tree.js';
import { knownBlobs, placeFiles, type Manifest } from '../store/manifest.js';
import type { StoreHandle } from '../store/store-handle.js';
import { readRegularFile } from '../util/read-regular.js';
import { noteUncommonRun } from '../util/run-kind.js';
import type { IndexContext } from './index-context.js';

/** A working-tree file read once: its content is hashed as git would hash it, and embedded from these bytes. */
interface WorkingFile {
  entry: TreeEntry;
  bytes: Buffer;
}

/**
 * The manifest of what the user sees: HEAD's manifest with uncommitted edits, staged changes and untracked
 * (not ignored) files laid over it, deleted files removed. New content is embedded into the shared store by
 * blob, so committing it later embeds nothing. Returns the manifest unchanged when the tree is clean.
 */
export async function withWorkingTree(ctx: IndexContext, manifest: Manifest, store: StoreHandle, embedder: Embedder, pending: Promise<WorkingChange[]>): Promise<Manifest> {
  const changes = await pending;
  if (changes.length === 0) return manifest;
  // Loaded only for edits: a clean tree's search does without the selection rules and their glob matchers.
  const { selectFiles } = await import('./select.js');
  const files = { ...manifest.files };
  const skipped = { ...manifest.skipped };
  const skippedBlobs = { ...manifest.skippedBlobs };
  const present: WorkingFile[] = [];
  for (const change of changes) {
    delete files[change.path];
    delete skipped[change.path];
    delete skippedBlobs[change.path];
    if (change.deleted) continue;
    const file = readWorkingFile(ctx.repo.root, change.path, ctx.config.maxFileBytes);
    if (file === UNREADABLE) skipped[change.path] = 'unreadable';
    else if (file) present.push(file);
  }
  const selection = selectFiles(present.map((f) => f.entry), ctx.config);
  for (const s of selection.skipped) skipped[s.path] = s.reason;
  const known = knownBlobs(manifest);
  const unknown = selection.files.filter((f) => !known.has(f.blob));
  if (unknown.length) for (const [blob, state] of await (await store.get()).blobState(unknown.map((f) => f.blob))) known.set(blob, state);
  const bytesByBlob = new Map(present.map((f) => [f.entry.blob, f.bytes]));
  const toEmbed = [...new Map(selection.files.filter((f) => !known.has(f.blob)).map((f) => [f.blob, { path: f.path, blob: f.blob }])).values()];
  if (toEmbed.length) {
    // Loaded only for new content: answering for a tree whose edits are all known never loads the chunker.
    noteUncommonRun();
    const { embedBlobs } = await import('./embed-blobs.js');
    const result = await embedBlobs(await store.get(), embedder, toEmbed, async (b) => bytesByBlob.get(b.blob) ?? null, { maxLineChars: ctx.config.maxLineChars });
    for (const m of result.marks) known.set(m.blob, m.reason);
  }
  placeFiles(selection.files, known, { files, skipped, skippedBlobs });
  return { ...manifest, files, skipped, skippedBlobs };
}

/** A file the user cannot read (another user's, mode 000): said so, as a search can do nothing about it. */
const UNREADABLE = 'unreadable';

/** Reads a working-tree file (named by its key, byte-exact) as a tree entry would describe it; symlinks and folders are not followed. */
function readWorkingFile(root: string, rel: string, maxBytes: number): WorkingFile | typeof UNREADABLE | null {
  const full = keyFsPath(root, rel);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(full);
  } catch {
    return null;
  }
  if (stat.isSymbolicLink()) return { entry: { path: rel, blob: blobIdOf(fs.readlinkSync(full, { encoding: 'buffer' })), kind: 'symlink', size: 0 }, bytes: Buffer.alloc(0) };
  if (!stat.isFile()) return null;
  const read = readRegularFile(full, maxBytes);
  if (!read) return UNREADABLE;
  return { entry: { path: rel, blob: blobIdOf(read.bytes), kind: stat.mode & 0o111 ? 'executable' : 'file', size: read.size }, bytes: read.bytes };
}

