// Damage done to an index on disk, as a failing disk, a stray write or a hand with LanceDB would do it: the
// security and journey tests of the local store's checks share these.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { runCli, tempDir } from '../helpers.js';
import { layoutOf } from '../robustness/robustness-helpers.js';

export const QUERIES = ['validate the invoice payment before sending', 'parse the session token from a request'];

/** A synthetic repository of `files` files in several languages, indexed by the built CLI. */
export async function indexedRepo(label: string, files = 120): Promise<string> {
  const repo = path.join(tempDir(label), 'repo');
  await writeSyntheticRepo(repo, { files, seed: 27 });
  const r = await runCli(['index'], repo);
  assert.equal(r.code, 0, r.stderr);
  return repo;
}

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** `ocrag search --json` of each query, as an agent's tool call would run it. */
export async function answers(repo: string, queries = QUERIES, env: NodeJS.ProcessEnv = {}): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const q of queries) out.push(await runCli(['search', q, '--json', '-k', '5'], repo, { RUST_BACKTRACE: '0', ...env }));
  return out;
}

export const DAMAGED = /^ocrag: the index is damaged \(.+\): run "ocrag index --rebuild" to rebuild it$/m;

/**
 * What damage may do to an answer: refuse it (exit 4 with the fix) or leave it exactly as it was; never answer
 * otherwise. Returns how many were refused.
 */
export function sameOrRefused(before: Answer[], after: Answer[], label: string): number {
  let refused = 0;
  after.forEach((a, i) => {
    if (a.code === 0) {
      assert.equal(a.stdout, before[i].stdout, `${label}: an answer of exit 0 must be the one from before`);
      return;
    }
    assert.equal(a.code, 4, `${label}: exit ${a.code}: ${a.stderr}`);
    // LanceDB's native panic hook may have written its own lines first (a decoder meeting garbage): ours is last.
    const said = a.stderr.trim().split('\n').at(-1)!;
    assert.match(said, DAMAGED, label);
    assert.doesNotMatch(said, /\.rs:\d+|Caused by/, 'no Rust source locations');
    refused++;
  });
  return refused;
}

/** A copy of the repository and its index, without its search snapshot (so searches read the store). */
export function storeCopy(repo: string, label: string): string {
  const dest = path.join(tempDir(label), 'repo');
  fs.cpSync(repo, dest, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(layoutOf(dest).resident, { recursive: true, force: true });
  return dest;
}

/** The largest data file of a table (`contents` or `chunk_refs`). */
export function largestDataFile(repo: string, table: string): string {
  const dir = path.join(layoutOf(repo).tables, `${table}.lance`, 'data');
  return fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
}

/** Overwrites `length` bytes at `fraction` of the file with deterministic noise, as a failing disk would. */
export function garble(file: string, fraction: number, length = 4096): void {
  const size = fs.statSync(file).size;
  const at = Math.max(0, Math.min(size - length, Math.floor(size * fraction)));
  let seed = Math.floor(fraction * 1e6) + 1;
  const noise = Buffer.alloc(Math.min(length, size));
  for (let i = 0; i < noise.length; i++) noise[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, noise, 0, noise.length, at);
  fs.closeSync(fd);
}

/** Rewrites one content row of the store through LanceDB itself (a row as a writer would add it, but changed). */
export async function rewriteContent(repo: string, change: (row: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const db = await lancedb.connect(layoutOf(repo).tables);
  try {
    const table = await db.openTable('contents');
    const [row] = await table.query().limit(1).toArray();
    const key = row.content_key as string;
    const plain = { content_key: key, symbol: row.symbol, text: row.text, terms: row.terms, vector: Array.from(row.vector as ArrayLike<number>) };
    await table.delete(`content_key = '${key}'`);
    await table.add([change(plain)]);
    table.close();
  } finally {
    db.close();
  }
}

/** Section name → [offset, byte length] in a search snapshot (sectioned-file.ts). */
export function snapshotSections(file: string): Map<string, [number, number]> {
  const bytes = fs.readFileSync(file);
  const header = JSON.parse(bytes.subarray(16, 16 + bytes.readUInt32LE(8)).toString('utf8')) as { sections: { name: string; type: string; offset: number; length: number }[] };
  const width: Record<string, number> = { Uint8Array: 1, Int8Array: 1, Uint16Array: 2, Int32Array: 4, Uint32Array: 4, Float32Array: 4, Float64Array: 8 };
  return new Map(header.sections.map((s) => [s.name, [s.offset, s.length * width[s.type]]]));
}

/** The one search snapshot of the repository's index. */
export function snapshotFile(repo: string): string {
  const dir = layoutOf(repo).resident;
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.snap'));
  assert.equal(files.length, 1, `one snapshot in ${dir}: ${files.join(', ')}`);
  return path.join(dir, files[0]);
}

/** Flips one byte in every `every` bytes of a section (every block of a lazy one fails its checksum). */
export function flipSection(file: string, section: string, every = 512): void {
  const [offset, length] = snapshotSections(file).get(section)!;
  const bytes = fs.readFileSync(file);
  for (let at = offset + Math.min(7, length - 1); at < offset + length; at += every) bytes[at] ^= 0x5a;
  fs.writeFileSync(file, bytes);
}
