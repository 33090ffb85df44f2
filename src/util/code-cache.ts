import fs from 'node:fs';
import { createRequire, Module } from 'node:module';
import path from 'node:path';
import type * as Vm from 'node:vm';
import type * as Zlib from 'node:zlib';
import { writeAtomicallyWith } from './atomic-write.js';
import { LENT_IMPORT } from './import-package.js';
import { readRegularFile } from './read-regular.js';
import { isUncommonRun } from './run-kind.js';
import { removeQuietly } from './temp-file.js';

// Required when first used: this module is part of the quick entry of every search, which a running server mostly
// answers without either.
const builtin = createRequire(import.meta.url);
const vmModule = () => builtin('node:vm') as typeof Vm;

/**
 * A CommonJS file run as `require` would run it, compiled with V8's code cache: a one-shot search in its own process
 * compiled ~1.8 MB of JavaScript each time, and from the cache V8 reads the functions a search ran instead of
 * parsing and compiling them again (~60 ms of CPU of ~460 on a loaded machine, issue 31). The cache is this user's
 * own file, in a folder closed to others: a file that is not ours, is open to others, a link, or fails its
 * checksum is not used (V8 then also checks it against its own version, flags and the source); a missing or refused
 * one is written anew when the process ends, when everything the run compiled is in it. A cache says whether the
 * run that wrote it was an uncommon one (util/run-kind.ts): a common run that finds such a cache removes it, so the
 * next run writes one of only what it compiles (a fresh clone's first search left 1.6 MB where a plain search
 * needs 0.8, and reading it cost every later search ~10 ms, issue 31).
 */

/**
 * A CRC-32 of the cached bytes ahead of them: it finds a torn or damaged file (the folder and file being this
 * user's alone is what keeps others out), at ~0.3 ms for the ~0.75 MB cache where a sha256 took 3-4 ms of a search.
 */
const DIGEST_BYTES = 4;
/** The byte after the digest: which kind of run wrote the cache. */
const COMMON = 0;
const UNCOMMON = 1;
/** Larger than any cache of the bundle it holds (~0.75 MB): a bigger file is not read. */
const MAX_CACHE_BYTES = 64 << 20;

/**
 * The exports of `file`, run with a code cache in `folder`. The file must import packages through importPackage
 * (util/import-package.ts), never import() itself: a script V8 compiled from its cache has no importer on Node 20,
 * so this module lends its own (scripts/bundle-cli.mjs refuses a bundle that imports otherwise).
 */
export function requireWithCodeCache(file: string, folder: string): Record<string, unknown> {
  const vm = vmModule();
  (globalThis as Record<symbol, unknown>)[LENT_IMPORT] ??= (name: string) => import(name);
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const prefix = `${path.basename(file)}-`;
  const cacheFile = path.join(folder, `${prefix}${stat.size}-${Math.floor(stat.mtimeMs)}-${process.version}-${process.arch}.v8`);
  const cached = readOwn(cacheFile);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached?.data });
  if (!cached || script.cachedDataRejected) process.once('exit', () => writeCache(folder, cacheFile, prefix, script));
  else if (cached.kind === UNCOMMON) process.once('exit', () => isUncommonRun() || removeQuietly(cacheFile));
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/** The cached bytes and the kind of run that wrote them: the digest covers both. */
function readOwn(file: string): { data: Buffer; kind: number } | undefined {
  const read = readRegularFile(file, MAX_CACHE_BYTES);
  if (!read || !ours(read.stat) || read.bytes.length !== read.size || read.size <= DIGEST_BYTES + 1) return undefined;
  const body = read.bytes.subarray(DIGEST_BYTES);
  return digest(body).equals(read.bytes.subarray(0, DIGEST_BYTES)) ? { data: body.subarray(1), kind: body[0] } : undefined;
}

/** Best effort: a cache that cannot be written is compiled without next time too. */
function writeCache(folder: string, file: string, prefix: string, script: Vm.Script): void {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory() || !ours(stat)) return;
    const body = Buffer.concat([Buffer.of(isUncommonRun() ? UNCOMMON : COMMON), script.createCachedData()]);
    writeAtomicallyWith(file, (tmp) => fs.writeFileSync(tmp, Buffer.concat([digest(body), body]), { mode: 0o600 }), { durable: false });
    pruneOthers(folder, file, prefix);
  } catch {
    // A read-only or full disk: nothing lost but time.
  }
}

/** Caches of the same file's other builds or Node versions: the newest few stay (installs side by side), no more. */
const KEEP_OTHERS = 3;

function pruneOthers(folder: string, file: string, prefix: string): void {
  const others = fs
    .readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith('.v8') && path.join(folder, name) !== file)
    .map((name) => ({ name, at: fs.lstatSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of others.slice(KEEP_OTHERS)) fs.rmSync(path.join(folder, name), { force: true });
}

/** Ours and closed to everyone else. */
function ours(stat: fs.Stats): boolean {
  return (process.geteuid === undefined || stat.uid === process.geteuid()) && (stat.mode & 0o077) === 0;
}

function digest(data: Uint8Array): Buffer {
  const out = Buffer.alloc(DIGEST_BYTES);
  out.writeUInt32LE((builtin('node:zlib') as typeof Zlib).crc32(data), 0);
  return out;
}
