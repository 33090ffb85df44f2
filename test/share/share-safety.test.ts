import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { ENTRY, isGzipped } from '../../src/share/format.js';
import type { ArtifactEntry } from '../../src/share/tar-write.js';
import arrow from '../../src/store/arrow.js';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { git, makeFixtureRepo, runCli, runJson, tempDir } from '../helpers.js';
import { exportedArtifact } from '../security/verify-helpers.js';
import { artifactEntries, resealTrailer, writeArtifactEntries } from './artifact-entries.js';

/** Everything an import could change: manifests (byte for byte), chunk count, and files outside .ocrag/. */
interface State {
  manifests: Record<string, string>;
  chunks: number;
  outside: string[];
}

function filesUnder(dir: string, skip: (rel: string) => boolean): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((rel) => !skip(rel)).sort();
}

async function snapshot(repo: string, sandbox: string): Promise<State> {
  const dir = path.join(repo, '.ocrag', 'manifests');
  const manifests: Record<string, string> = {};
  for (const f of fs.readdirSync(dir)) manifests[f] = fs.readFileSync(path.join(dir, f), 'utf8');
  const meta = JSON.parse(fs.readFileSync(path.join(repo, '.ocrag', 'store.json'), 'utf8')) as { dim: number };
  const store = await openStore(storeLocation(path.join(repo, '.ocrag')), meta.dim);
  const chunks = await store.countChunks();
  store.close();
  const inRepo = (rel: string) => rel.startsWith(`${path.basename(repo)}/.ocrag`) || rel.startsWith(`${path.basename(repo)}/.git`);
  return { manifests, chunks, outside: filesUnder(sandbox, inRepo) };
}

/** What an import could leave in a repository without an index: anything in .ocrag/, files outside it. */
function freshState(repo: string, sandbox: string): { ocrag: string[]; outside: string[] } {
  const ocrag = path.join(repo, '.ocrag');
  const inRepo = (rel: string) => rel.startsWith(`${path.basename(repo)}/.ocrag`) || rel.startsWith(`${path.basename(repo)}/.git`);
  return { ocrag: fs.existsSync(ocrag) ? filesUnder(ocrag, () => false) : [], outside: filesUnder(sandbox, inRepo) };
}

/** Rewrites an artifact with `edit` applied; with `rehash`, the trailer is recomputed so only the edit is wrong. */
async function repack(src: string, dst: string, edit: (entries: ArtifactEntry[]) => void, rehash: boolean): Promise<string> {
  const entries = await artifactEntries(src);
  edit(entries);
  if (rehash) resealTrailer(entries);
  return writeArtifactEntries(dst, entries);
}

/** What an entry holds, unpacked. */
function contentOf(entry: ArtifactEntry): Buffer {
  return isGzipped(entry.name) ? gunzipSync(entry.body) : entry.body;
}

/** Replaces what an entry holds, packed as the format stores it. */
function setContent(entry: ArtifactEntry, content: Buffer): void {
  entry.body = isGzipped(entry.name) ? gzipSync(content) : content;
}

function editJson(entries: ArtifactEntry[], name: string, change: (value: Record<string, unknown>) => void): void {
  const entry = entries.find((e) => e.name === name)!;
  const value = JSON.parse(contentOf(entry).toString('utf8'));
  change(value);
  setContent(entry, Buffer.from(JSON.stringify(value)));
}

const columnsEntry = (es: ArtifactEntry[]) => es.find((e) => e.name.endsWith('.arrow.gz'))!;
const vectorsEntry = (es: ArtifactEntry[]) => es.find((e) => e.name.endsWith('.f32'))!;

/** A raw tar header block made by the tar library, for entry kinds its packer would not take from disk. */
function rawEntry(name: string, type: 'CharacterDevice' | 'File', size: number, body: Uint8Array = Buffer.alloc(0)): Buffer {
  const block = Buffer.alloc(512);
  new tar.Header({ path: name, type, size, mode: 0o644, mtime: new Date(), uid: 0, gid: 0, devmaj: 1, devmin: 3 }).encode(block, 0);
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([block, body, pad]);
}

describe('import refuses hostile or damaged artifacts and leaves the index as it was', () => {
  let sandbox: string;
  let target: string;
  let good: string;
  let goodEntries: ArtifactEntry[];
  let work: string;
  let original: State;
  /** A clone without an index, where an accepted artifact would become the whole store. */
  let fresh: string;
  let freshSandbox: string;

  before(async () => {
    const origin = makeFixtureRepo();
    ({ work, good } = await exportedArtifact(origin, 'hostile'));
    goodEntries = await artifactEntries(good);
    // The victim: a clone one commit ahead, with its own index, so an accepted artifact would add to it.
    sandbox = tempDir('victim');
    target = path.join(sandbox, 'victim');
    git(sandbox, 'clone', '-q', origin, target);
    fs.writeFileSync(path.join(target, 'local.ts'), 'export const local = 1;\n');
    git(target, 'add', '-A');
    git(target, 'commit', '-q', '-m', 'local work');
    await runJson(['index'], target);
    original = await snapshot(target, sandbox);
    freshSandbox = tempDir('fresh');
    fresh = path.join(freshSandbox, 'fresh');
    git(freshSandbox, 'clone', '-q', origin, fresh);
  });

  async function refused(file: string, message: RegExp): Promise<void> {
    const r = await runCli(['import', file], target);
    assert.equal(r.code, 4, `exit code for ${path.basename(file)}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.deepEqual(await snapshot(target, sandbox), original, 'index and files unchanged');
    for (const evil of [path.join(sandbox, 'evil'), path.join(path.dirname(sandbox), 'evil'), path.join(target, '.ocrag', 'evil')]) assert.ok(!fs.existsSync(evil), `${evil} not written`);

    const before = freshState(fresh, freshSandbox);
    const intoFresh = await runCli(['import', file], fresh);
    assert.equal(intoFresh.code, 4, `exit code into a fresh clone for ${path.basename(file)}: ${intoFresh.stderr}`);
    assert.equal(intoFresh.stderr, r.stderr, 'the same message with or without an index');
    assert.deepEqual(freshState(fresh, freshSandbox), { ...before, ocrag: [] }, 'no store, manifest or staging left, nothing written outside');
  }

  test('a tampered checksum, tampered content or tampered total digest', async () => {
    const chunkEntry = columnsEntry(goodEntries).name;
    await refused(
      await repack(good, path.join(work, 'sum.tar'), (es) => editJson(es, ENTRY.trailer, (t) => ((t.entries as { sha256: string }[])[3].sha256 = '0'.repeat(64))), false),
      new RegExp(`checksum mismatch for ${chunkEntry}`),
    );
    await refused(
      await repack(good, path.join(work, 'flip.tar'), (es) => (es.find((e) => e.name === chunkEntry)!.body[100] ^= 1), false),
      /checksum mismatch for .*chunks\/000001\.arrow\.gz: the artifact is corrupt or was altered/,
    );
    await refused(await repack(good, path.join(work, 'flip-vector.tar'), (es) => (vectorsEntry(es).body[100] ^= 1), false), /checksum mismatch for .*chunks\/000001\.f32: the artifact is corrupt or was altered/);
    await refused(await repack(good, path.join(work, 'total.tar'), (es) => editJson(es, ENTRY.trailer, (t) => (t.sha256 = 'f'.repeat(64))), false), /overall checksum mismatch/);
  });

  test('a truncated artifact, or one that is not a tar', async () => {
    const bytes = fs.readFileSync(good);
    const cut = path.join(work, 'cut.tar');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await refused(cut, /artifact is truncated/);
    const junk = path.join(work, 'junk.tar');
    fs.writeFileSync(junk, 'this is not an artifact\n');
    await refused(junk, /corrupt or not an ocrag index artifact/);
    const gzipped = path.join(work, 'gzipped.tar.gz');
    fs.writeFileSync(gzipped, gzipSync(bytes));
    await refused(gzipped, /artifact is gzipped: .*gunzip it first/);
  });

  test('an artifact of format version 1 (a gzipped tar, from an older ocrag)', async () => {
    const header = JSON.parse(goodEntries[0].body.toString('utf8'));
    const v1 = Buffer.from(JSON.stringify({ ...header, formatVersion: 1 }));
    const file = path.join(work, 'v1.tar.gz');
    fs.writeFileSync(file, gzipSync(Buffer.concat([rawEntry(ENTRY.header, 'File', v1.length, v1), Buffer.alloc(1024)])));
    await refused(file, /^ocrag: artifact format version 1 is not supported \(this ocrag reads version 2\): export it again with this ocrag version$/m);
  });

  test('an artifact of another model, dimension, chunker or format version', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['modelId', 'other/model', /built with model "other\/model" but the configured model is "ocrag\/use-static-v2"/],
      ['dim', 384, /vectors have 384 dimensions but the configured model .* has 512/],
      ['chunkerVersion', '999', /chunker version "999" but this ocrag uses version/],
      ['formatVersion', 3, /format version 3 is not supported/],
    ];
    for (const [field, value, message] of cases) {
      const file = await repack(good, path.join(work, `${field}.tar`), (es) => editJson(es, ENTRY.header, (h) => (h[field] = value)), true);
      await refused(file, message);
    }
  });

  test('path traversal, absolute paths, symlinks and devices in the archive (made with tar)', async () => {
    const stage = path.join(work, 'stage');
    const inner = path.join(stage, 'inner');
    fs.mkdirSync(path.join(inner, 'ocrag-index'), { recursive: true });
    fs.writeFileSync(path.join(inner, ENTRY.header), goodEntries[0].body);
    fs.writeFileSync(path.join(stage, 'evil'), 'pwned\n');
    fs.symlinkSync('/etc/passwd', path.join(inner, ENTRY.manifest));
    const pack = async (name: string, members: string[]) => {
      const file = path.join(work, name);
      await tar.c({ file, cwd: inner, preservePaths: true, portable: true }, [ENTRY.header, ...members]);
      return file;
    };
    await refused(await pack('dotdot.tar', ['../evil']), /".." in its path "\.\.\/evil"; refused/);
    await refused(await pack('absolute.tar', [path.join(stage, 'evil')]), /absolute path "\/.*\/evil"; refused/);
    await refused(await pack('symlink.tar', [ENTRY.manifest]), /symlink "ocrag-index\/manifest.json.gz"; refused/);

    const crafted = (name: string, ...blocks: Buffer[]) => {
      const file = path.join(work, name);
      fs.writeFileSync(file, Buffer.concat([rawEntry(ENTRY.header, 'File', goodEntries[0].body.length, goodEntries[0].body), ...blocks, Buffer.alloc(1024)]));
      return file;
    };
    await refused(crafted('device.tar', rawEntry('ocrag-index/null', 'CharacterDevice', 0)), /device or special file "ocrag-index\/null"/);
    await refused(crafted('huge.tar', rawEntry('ocrag-index/chunks/000001.f32', 'File', 300 * 1024 * 1024)), /declares 314572800 bytes, over the limit/);
    await refused(crafted('unexpected.tar', rawEntry('ocrag-index/run.sh', 'File', 3, Buffer.from('ls\n'))), /unexpected entry "ocrag-index\/run.sh"/);
  });

  test('consistent checksums over bad contents: an unsafe manifest path, a foreign blob, a forged chunk id', async () => {
    const file = await repack(good, path.join(work, 'manifest.tar'), (es) => editJson(es, ENTRY.manifest, (m) => ((m.files as Record<string, string>)['../../outside.ts'] = 'a'.repeat(40))), true);
    await refused(file, /artifact manifest is invalid: unsafe path "\.\.\/\.\.\/outside\.ts"/);

    const dropped = await repack(good, path.join(work, 'foreign.tar'), (es) => editJson(es, ENTRY.manifest, (m) => delete (m.files as Record<string, string>)['src/cli/args.ts']), true);
    await refused(dropped, /row \d+: blob [0-9a-f]{40} is not in the artifact's manifest/);

    const forged = await repack(
      good,
      path.join(work, 'forged.tar'),
      (es) => {
        const entry = columnsEntry(es);
        const columns = contentOf(entry);
        const id = arrow.tableFromIPC(columns).getChild('id')!.get(0) as string;
        const at = columns.indexOf(id);
        columns[at] = columns[at] === 0x61 ? 0x62 : 0x61; // another hex digit: same length, still UTF-8
        setContent(entry, columns);
      },
      true,
    );
    await refused(forged, /row 1: chunk id "[0-9a-f]{40}" does not match its blob, span, model and chunker/);

    const dim = JSON.parse(goodEntries[0].body.toString('utf8')).dim as number;
    const notANumber = await repack(good, path.join(work, 'nan.tar'), (es) => vectorsEntry(es).body.writeFloatLE(Number.NaN, 4 * (dim + 3)), true);
    await refused(notANumber, /chunks\/000001\.f32: row 2: vector holds a value that is not a finite number/);
  });

  test('consistent checksums over a broken chunk entry: short vectors, vectors missing, a member that is not gzip', async () => {
    const short = await repack(good, path.join(work, 'short.tar'), (es) => (vectorsEntry(es).body = vectorsEntry(es).body.subarray(4)), true);
    await refused(short, /chunks\/000001\.f32: holds \d+ bytes, not the \d+ × \d+ float32s of its rows/);
    const missing = await repack(good, path.join(work, 'no-vectors.tar'), (es) => es.splice(es.indexOf(vectorsEntry(es)), 1), true);
    await refused(missing, /chunks\/000001\.arrow\.gz is not followed by its vectors/);
    const plain = await repack(good, path.join(work, 'not-gzip.tar'), (es) => (columnsEntry(es).body = contentOf(columnsEntry(es))), true);
    await refused(plain, /chunks\/000001\.arrow\.gz" is not valid gzip data/);
  });

  test('an artifact repeating rows (consistent checksums) stores each chunk once, with or without an index', async () => {
    const repeated = await repack(
      good,
      path.join(work, 'repeated.tar'),
      (es) => {
        const [columns, vectors] = [columnsEntry(es), vectorsEntry(es)];
        const trailerAt = es.findIndex((e) => e.name === ENTRY.trailer);
        const next = String(es.filter((e) => e.name.endsWith('.f32')).length + 1).padStart(6, '0');
        es.splice(trailerAt, 0, ...[columns, vectors].map((e) => ({ name: e.name.replace(/\d{6}/, next), body: e.body })));
        editJson(es, ENTRY.trailer, (t) => {
          const counts = t.counts as Record<string, number>;
          counts.chunks += arrow.tableFromIPC(contentOf(columns)).numRows;
          counts.entries += 2;
          counts.bytes += contentOf(columns).length + vectors.body.length;
        });
      },
      true,
    );
    const expected = (await runJson<{ counts: { chunks: number } }>(['export', '--check', good], target)).counts.chunks;
    const clean = path.join(tempDir('repeated'), 'repeated');
    git(path.dirname(clean), 'clone', '-q', fresh, clean);
    const imported = await runJson<{ chunksAdded: number }>(['import', repeated], clean);
    assert.equal(imported.chunksAdded, expected);
    assert.equal((await runJson<{ chunksStored: number }>(['status'], clean)).chunksStored, expected);
    assert.equal((await runJson<{ chunksAdded: number }>(['import', repeated], clean)).chunksAdded, 0);
  });

  test('the untouched artifact imports fine into the same index', async () => {
    const r = await runJson<{ manifestKey: string; chunksAdded: number }>(['import', good], target);
    assert.match(r.manifestKey, /^detached-/);
    assert.equal((await runCli(['export', '--check', path.join(work, 'cut.tar')], target)).code, 4);
  });
});
