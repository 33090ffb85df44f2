// A CommonJS file run through V8's code cache (src/util/code-cache.ts), as the quick entry of a search runs the
// search in its own process: each run in a process of its own (the cache is written as the process ends), from the
// built module, over a small module that imports a package and a Node built-in as the real one does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { describe, it } from 'node:test';
import { PROJECT_ROOT, tempDir } from '../helpers.js';

const BUILT = pathToFileURL(path.join(PROJECT_ROOT, 'dist', 'util', 'code-cache.js')).href;

/** The module's answer, run once in a fresh process with its cache in `folder`. */
function runOnce(file: string, folder: string, uncommon = false): string {
  const note = pathToFileURL(path.join(PROJECT_ROOT, 'dist', 'util', 'run-kind.js')).href;
  const script = `import { requireWithCodeCache } from ${JSON.stringify(BUILT)};
import { noteUncommonRun } from ${JSON.stringify(note)};
const m = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(folder)});
if (${uncommon}) noteUncommonRun();
console.log(JSON.stringify(await m.answer()));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** A cache file's first 4 bytes are the CRC-32 of the rest, little-endian (src/util/code-cache.ts). */
function checksOut(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes.readUInt32LE(0) === crc32(bytes.subarray(4));
}

function cacheFiles(folder: string): string[] {
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.v8')) : [];
}

describe('code cache of a CommonJS file', () => {
  const dir = tempDir('code-cache');
  const file = path.join(dir, 'entry.cjs');
  // A package found from the file's own folder's node_modules, as the bundle finds ocrag's packages.
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(
    file,
    // A package imported as ocrag's code imports one (importPackage): through the import() the runner lends.
    `const path = require('node:path');\nconst lent = globalThis[Symbol.for('ocrag.lent-import')];\nexports.answer = async () => ({ dir: path.basename(__dirname), glob: (await lent('picomatch')).default.isMatch('a/b.ts', '**/*.ts'), self: module.exports === exports });\n`,
  );
  const expected = JSON.stringify({ dir: path.basename(dir), glob: true, self: true });

  it('runs the file as require would, writes its cache (ours alone) and uses it next time', () => {
    const folder = path.join(dir, 'cache');
    assert.equal(runOnce(file, folder), expected);
    const [name] = cacheFiles(folder);
    assert.ok(name, 'a cache was written');
    const cache = path.join(folder, name);
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.equal(fs.statSync(cache).mode & 0o777, 0o600);
    const written = fs.statSync(cache).mtimeMs;
    assert.equal(runOnce(file, folder), expected);
    assert.equal(fs.statSync(cache).mtimeMs, written, 'a good cache is used as it is, not written again');
  });

  it("an uncommon run's cache is used until a common run removes it, and the next common run writes its own", () => {
    const folder = path.join(dir, 'kinds');
    assert.equal(runOnce(file, folder, true), expected);
    const cache = path.join(folder, cacheFiles(folder)[0]);
    const written = fs.statSync(cache).mtimeMs;
    assert.equal(fs.readFileSync(cache)[4], 1, 'marked as written by an uncommon run');
    assert.equal(runOnce(file, folder, true), expected);
    assert.equal(fs.statSync(cache).mtimeMs, written, 'another uncommon run uses it as it is');
    assert.equal(runOnce(file, folder), expected);
    assert.deepEqual(cacheFiles(folder), [], 'a common run removed it');
    assert.equal(runOnce(file, folder), expected);
    assert.equal(fs.readFileSync(cache)[4], 0, "the next common run wrote its own");
    const common = fs.statSync(cache).mtimeMs;
    assert.equal(runOnce(file, folder, true), expected);
    assert.equal(fs.statSync(cache).mtimeMs, common, 'which an uncommon run leaves alone');
  });

  it('uses no cache that fails its checksum, is open to others or is a link, and writes a good one in its place', () => {
    const folder = path.join(dir, 'refused');
    runOnce(file, folder);
    const cache = path.join(folder, cacheFiles(folder)[0]);
    const good = fs.readFileSync(cache);
    assert.ok(checksOut(good));
    const damaged = Buffer.from(good);
    damaged[damaged.length - 100] ^= 0xff;
    assert.ok(!checksOut(damaged));
    fs.writeFileSync(cache, damaged);
    assert.equal(runOnce(file, folder), expected);
    assert.ok(checksOut(fs.readFileSync(cache)), 'the damaged cache was replaced by a good one');
    assert.equal(fs.readFileSync(cache).length > 4 && good.length > 4, true);

    fs.chmodSync(cache, 0o644);
    const before = fs.statSync(cache).mtimeMs;
    assert.equal(runOnce(file, folder), expected);
    assert.equal(fs.statSync(cache).mode & 0o777, 0o600, 'a cache open to others is written anew');
    assert.ok(fs.statSync(cache).mtimeMs >= before);

    const elsewhere = path.join(dir, 'planted.v8');
    fs.renameSync(cache, elsewhere);
    fs.symlinkSync(elsewhere, cache);
    assert.equal(runOnce(file, folder), expected);
    assert.ok(!fs.lstatSync(cache).isSymbolicLink(), 'a link in its place is replaced by a file');
  });

  it('keeps the newest few caches of other builds, no more', () => {
    const folder = path.join(dir, 'builds');
    for (let build = 0; build < 6; build++) {
      fs.writeFileSync(file, `exports.answer = async () => ${build};\n`);
      fs.utimesSync(file, new Date(), new Date(Date.now() + build * 1000));
      assert.equal(runOnce(file, folder), String(build));
    }
    assert.equal(cacheFiles(folder).length, 4);
  });
});
