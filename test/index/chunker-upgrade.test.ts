// A language's chunker version changes: only its files are chunked and embedded again, the rest of the index stays.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chunkerVersion } from '../../src/chunk/version.js';
import { dryRun } from '../../src/index/dry-run.js';
import { readFields } from '../../src/store/chunk-batch.js';
import { openStore } from '../../src/store/open-store.js';
import { storeLocation } from '../../src/store/layout.js';
import { readMeta } from '../../src/store/meta.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { TEST_CACHE, twoLanguageRepo } from '../helpers.js';
import { setSeams } from '../support/seams.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** Chunk id → language, as stored. */
async function storedChunks(repo: string): Promise<Map<string, string>> {
  const dir = path.join(repo, '.ocrag');
  const store = await openStore(storeLocation(dir), readMeta(path.join(dir, 'store.json'))!.dim, { create: false });
  const out = new Map<string, string>();
  try {
    for await (const batch of store.chunkColumns(null, ['id', 'language'])) {
      const { id, language } = readFields(batch, ['id', 'language']);
      for (let i = 0; i < batch.numRows; i++) out.set(id(i), language(i));
    }
  } finally {
    store.close();
  }
  return out;
}

function ofLanguage(chunks: Map<string, string>, language: string): string[] {
  return [...chunks].filter(([, l]) => l === language).map(([id]) => id).sort();
}

async function withIndex<T>(repo: string, use: (index: CodeIndex, notices: string[]) => Promise<T>): Promise<T> {
  const notices: string[] = [];
  const index = await CodeIndex.open(repo, {}, { onNotice: (m) => notices.push(m) });
  try {
    return await use(index, notices);
  } finally {
    await index.close();
  }
}

describe('per-language chunker versions', () => {
  let seams: ReturnType<typeof setSeams>;
  let repo: string;
  let first: Map<string, string>;
  before(async () => {
    seams = setSeams({});
    repo = twoLanguageRepo();
    const summary = await withIndex(repo, (index) => index.index());
    assert.equal(summary.newBlobs, 4);
    first = await storedChunks(repo);
    assert.ok(ofLanguage(first, 'python').length >= 2 && ofLanguage(first, 'typescript').length >= 2);
  });
  after(() => setSeams(seams ?? {}));

  test('raising one language re-embeds its files only; the other language keeps its chunks', async () => {
    setSeams({ chunkerRevisions: { python: 3 } });
    const { plan, summary, notices, found } = await withIndex(repo, async (index, notices) => ({
      plan: await dryRun(index.ctx),
      summary: await index.index(),
      notices,
      found: await index.search('copy the database file to a backup', { k: 3 }),
    }));
    const python = ofLanguage(first, 'python');
    assert.deepEqual([plan.newBlobs, plan.knownBlobs], [2, 2], 'a dry run says as much');
    assert.equal(summary.upToDate, false);
    assert.equal(summary.newBlobs, 2, 'the two Python files, not the TypeScript ones');
    assert.equal(summary.chunksEmbedded, python.length);
    assert.equal(summary.chunksTotal, first.size, 'the old Python chunks are gone');
    assert.match(notices.join('\n'), /the chunker changed for python \(1\+\S+ → 1\+\S*python\.3\S*\)/);
    const now = await storedChunks(repo);
    assert.deepEqual(ofLanguage(now, 'typescript'), ofLanguage(first, 'typescript'), 'TypeScript chunks kept, ids and all');
    assert.equal(ofLanguage(now, 'python').filter((id) => python.includes(id)).length, 0, 'Python chunks have new ids');
    assert.equal(readMeta(path.join(repo, '.ocrag', 'store.json'))!.chunkerVersion, chunkerVersion().replace('python.2', 'python.3'));
    assert.equal(found[0]?.path, 'tools/backup.py');
    const again = await withIndex(repo, (index) => index.index());
    assert.deepEqual([again.upToDate, again.newBlobs], [true, 0]);
  });

  test('gc drops the chunks of an older chunker; going back gives the chunks their first ids again', async () => {
    setSeams({ chunkerRevisions: { python: 4 } });
    const gc = await withIndex(repo, (index) => index.gc());
    assert.equal(gc.chunksRemoved, ofLanguage(first, 'python').length);
    assert.deepEqual(ofLanguage(await storedChunks(repo), 'typescript'), ofLanguage(first, 'typescript'));
    setSeams({});
    const summary = await withIndex(repo, (index) => index.index());
    assert.equal(summary.newBlobs, 2);
    assert.deepEqual([...(await storedChunks(repo)).keys()].sort(), [...first.keys()].sort());
    assert.equal(readMeta(path.join(repo, '.ocrag', 'store.json'))!.chunkerVersion, chunkerVersion());
  });
});
