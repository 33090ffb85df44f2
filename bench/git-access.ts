// Compares the ways ocrag could read a tree and its blobs: one `git ls-tree` + one `git cat-file --batch`
// process (what src/git does) against isomorphic-git's pure-JS object reads.
// usage: node --import tsx bench/git-access.ts <repo>
import fs from 'node:fs';
import * as isogit from 'isomorphic-git';
import { BlobReader } from '../src/git/blobs.js';
import { listTree } from '../src/git/tree.js';

export async function measureGitAccess(repo: string): Promise<Record<string, number>> {
  let t = performance.now();
  const entries = (await listTree(repo, 'HEAD')).filter((e) => e.kind === 'file' || e.kind === 'executable');
  const lsTreeMs = performance.now() - t;
  t = performance.now();
  const reader = new BlobReader(repo);
  let bytes = 0;
  const reads = entries.map((e) => reader.read(e.blob));
  for (const r of reads) bytes += (await r)?.length ?? 0;
  await reader.close();
  const catFileMs = performance.now() - t;

  t = performance.now();
  const oid = await isogit.resolveRef({ fs, dir: repo, ref: 'HEAD' });
  const files = await isogit.listFiles({ fs, dir: repo, ref: oid });
  const isoListMs = performance.now() - t;
  t = performance.now();
  const cache = {};
  let isoBytes = 0;
  for (const e of entries) isoBytes += (await isogit.readBlob({ fs, dir: repo, oid: e.blob, cache })).blob.length;
  const isoReadMs = performance.now() - t;
  if (isoBytes !== bytes || files.length < entries.length) throw new Error('the two readers disagree');
  return { files: entries.length, megabytes: bytes / 1e6, lsTreeMs, catFileMs, isoListMs, isoReadMs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const repo = process.argv[2] ?? '.';
  console.log(JSON.stringify(await measureGitAccess(repo), null, 2));
}
