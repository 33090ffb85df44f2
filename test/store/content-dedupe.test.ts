// A store keeps each distinct chunk content (breadcrumb, text, words, vector) once: an edit to one function of a
// big file embeds that function alone, blobs that share a function store it once, and gc drops what no chunk
// references any more. Real git, the real model, LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { indexLayout } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { git, runJson, tempDir } from '../helpers.js';

// The counts below follow the store across commits: automatic gc would collect the older blobs between them.
process.env.OCRAG_AUTO_GC = 'false';

const FUNCTIONS = 12;

/** A module of many functions, each long enough to be a chunk of its own; `edited` changes one of them. */
function bigModule(edited?: number): string {
  return Array.from({ length: FUNCTIONS }, (_, i) => {
    const body = Array.from({ length: 10 }, (_, j) => `  total += step${j}(value, ${i * 10 + j});`).join('\n');
    const extra = i === edited ? '\n  total += Math.sqrt(total); // the edit\n' : '\n';
    return `/** Computes the weighted checksum number ${i} of a ledger entry. */\nexport function checksum${i}(value: number): number {\n  let total = ${i};\n${body}${extra}  return total;\n}\n`;
  }).join('\n');
}

const SHARED = 'export function sharedHelper(input: string): string {\n  const trimmed = input.trim();\n  const lower = trimmed.toLowerCase();\n  return lower.replace(/\\s+/g, "-");\n}\n';

interface IndexJson {
  chunksEmbedded: number;
  chunksTotal: number;
}

async function counts(repo: string): Promise<{ chunks: number; contents: number }> {
  const store = await openStore(indexLayout({ root: repo, commonDir: path.join(repo, '.git') }), 512, { create: false });
  try {
    return { chunks: await store.countChunks(), contents: await store.countContents() };
  } finally {
    store.close();
  }
}

describe('one stored copy per distinct content', () => {
  let repo: string;
  let first: IndexJson;

  before(async () => {
    repo = path.join(tempDir('dedupe'), 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'src', 'ledger.ts'), bigModule());
    fs.writeFileSync(path.join(repo, 'src', 'a.ts'), `${SHARED}\nexport function onlyInA(n: number): number {\n  return n * 2 + 1;\n}\n`);
    fs.writeFileSync(path.join(repo, 'src', 'b.ts'), `${SHARED}\nexport function onlyInB(list: string[]): number {\n  return list.filter(Boolean).length;\n}\n`);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    first = await runJson<IndexJson>(['index'], repo);
  });

  test('two blobs sharing a function store and embed its content once', async () => {
    const stored = await counts(repo);
    assert.ok(first.chunksTotal >= FUNCTIONS + 4, `each function is a chunk (${first.chunksTotal})`);
    assert.equal(stored.chunks, first.chunksTotal);
    assert.equal(stored.contents, stored.chunks - 1, 'sharedHelper, in a.ts and b.ts, is one content');
    assert.equal(first.chunksEmbedded, stored.contents, 'what was embedded is what is stored');
  });

  test('an edit to one function of a file of many embeds that function alone', async () => {
    fs.writeFileSync(path.join(repo, 'src', 'ledger.ts'), bigModule(5));
    git(repo, 'commit', '-q', '-am', 'edit checksum5');
    const second = await runJson<IndexJson>(['index'], repo);
    // The edited file is a new blob: all its chunks are stored again as references (later ones moved down a line).
    assert.equal(second.chunksTotal, first.chunksTotal + FUNCTIONS);
    assert.equal(second.chunksEmbedded, 1);
    assert.deepEqual(await counts(repo), { chunks: second.chunksTotal, contents: first.chunksEmbedded + 1 });
    const [hit] = await runJson<{ path: string; startLine: number }[]>(['search', 'checksum5', '-k', '1'], repo);
    assert.equal(hit.path, 'src/ledger.ts');
  });

  test('gc drops the chunks of a blob no manifest names, and the contents only they had', async () => {
    const before = await counts(repo);
    const gc = await runJson<{ chunksRemoved: number }>(['gc'], repo);
    assert.equal(gc.chunksRemoved, FUNCTIONS, "the first commit's ledger.ts");
    assert.deepEqual(await counts(repo), { chunks: before.chunks - FUNCTIONS, contents: before.contents - 1 });
    const [hit] = await runJson<{ path: string }[]>(['search', 'weighted checksum of a ledger entry', '-k', '1'], repo);
    assert.equal(hit.path, 'src/ledger.ts');
  });
});
