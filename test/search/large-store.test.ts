// A store past the large-store threshold is searched through LanceDB's indexes (vector + full text) instead of
// in memory. The threshold is lowered for the fixture repository (OCRAG_LARGE_STORE_CHUNKS); the answers must
// hold as in memory: right files, only the checked-out tree's chunks, uncommitted edits included.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { git, makeFixtureRepo, runCli, runJson } from '../helpers.js';

interface Result {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

const LARGE = { OCRAG_LARGE_STORE_CHUNKS: '1' };

async function search(repo: string, query: string, k = 5): Promise<Result[]> {
  return runJson<Result[]>(['search', query, '-k', String(k)], repo, LARGE);
}

describe('a large store, searched through its indexes', () => {
  let repo: string;

  before(async () => {
    repo = makeFixtureRepo();
    const r = await runCli(['index'], repo, LARGE);
    assert.equal(r.code, 0, r.stderr);
  });

  test('indexing marks the store large and builds its full-text index', () => {
    assert.ok(fs.existsSync(path.join(repo, '.ocrag', 'search-indexes.json')));
    const indices = path.join(repo, '.ocrag', 'lance', 'contents.lance', '_indices');
    assert.ok(fs.readdirSync(indices, { recursive: true }).length > 0, 'the full-text index is on disk');
  });

  test('questions and names find the right code, with line ranges that hold the chunk', async () => {
    const [top] = await search(repo, 'parse command line arguments');
    assert.equal(top.path, 'src/cli/args.ts');
    const lines = fs.readFileSync(path.join(repo, top.path), 'utf8').split('\n').slice(top.startLine - 1, top.endLine).join('\n');
    assert.equal(lines.trimEnd(), top.text.trimEnd());
    assert.equal((await search(repo, 'parseArgs'))[0].path, 'src/cli/args.ts');
    assert.ok(!fs.existsSync(path.join(repo, '.ocrag', 'resident')), 'nothing held in memory between processes');
  });

  test("a long-lived process's searches ask for the hits' keys first once the memo held the last one's, and answer the same", async () => {
    process.env.OCRAG_LARGE_STORE_CHUNKS = LARGE.OCRAG_LARGE_STORE_CHUNKS;
    const { openWorkspace } = await import('../../src/workspace/index.js');
    const { LanceChunkStore } = await import('../../src/store/lance/lance-store.js');
    const asked: { keysFirst: boolean; needed: number }[] = [];
    const queryIndexes = LanceChunkStore.prototype.queryIndexes;
    LanceChunkStore.prototype.queryIndexes = function (vector, words, limit, needsContent) {
      const call = { keysFirst: !!needsContent, needed: 0 };
      asked.push(call);
      return queryIndexes.call(this, vector, words, limit, needsContent && ((id, blob) => (needsContent(id, blob) ? (call.needed++, true) : false)));
    };
    const ws = await openWorkspace(repo);
    try {
      const find = async () => (await ws.find({ kind: 'code', text: 'parse command line arguments', k: 5 })).map((r) => ({ ...r }));
      const first = await find();
      assert.equal(first[0].path, 'src/cli/args.ts');
      // The second finds its chunks in the memo: from that, the third expects to, and asks for keys first.
      assert.deepEqual(await find(), first);
      assert.ok(asked.length > 0 && asked.every((c) => !c.keysFirst), 'the first two read whole rows');
      asked.length = 0;
      assert.deepEqual(await find(), first);
      assert.ok(asked.length > 0 && asked.every((c) => c.keysFirst && c.needed === 0), JSON.stringify(asked));
    } finally {
      LanceChunkStore.prototype.queryIndexes = queryIndexes;
      await ws.close();
      delete process.env.OCRAG_LARGE_STORE_CHUNKS;
    }
  });

  test('an imported artifact of a large store arrives large, indexes built, and answers the same', async () => {
    const artifact = path.join(path.dirname(repo), 'large.tar.gz');
    const exported = await runCli(['export', '--out', artifact], repo, LARGE);
    assert.equal(exported.code, 0, exported.stderr);
    const clone = path.join(path.dirname(repo), 'clone');
    git(path.dirname(repo), 'clone', '-q', repo, clone);
    const imported = await runCli(['import', artifact], clone, LARGE);
    assert.equal(imported.code, 0, imported.stderr);
    assert.ok(fs.existsSync(path.join(clone, '.ocrag', 'search-indexes.json')));
    assert.deepEqual(await search(clone, 'parse command line arguments'), await search(repo, 'parse command line arguments'));
  });

  test('only the checked-out tree answers, and uncommitted edits count', async () => {
    git(repo, 'checkout', '-q', '-b', 'no-args');
    git(repo, 'rm', '-q', 'src/cli/args.ts');
    git(repo, 'commit', '-q', '-m', 'drop the argument parser');
    assert.ok((await search(repo, 'parse command line arguments', 10)).every((r) => r.path !== 'src/cli/args.ts'));
    fs.mkdirSync(path.join(repo, 'src', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'cli', 'flags.ts'), '/** Reads the command line flags given to the program. */\nexport function readCommandLineFlags(argv: string[]): Map<string, string> {\n  return new Map(argv.map((a) => [a, a]));\n}\n');
    assert.equal((await search(repo, 'readCommandLineFlags'))[0].path, 'src/cli/flags.ts');
    git(repo, 'checkout', '-q', '-f', 'main');
    fs.rmSync(path.join(repo, 'src', 'cli', 'flags.ts'));
    assert.equal((await search(repo, 'parse command line arguments'))[0].path, 'src/cli/args.ts');
  });
});
