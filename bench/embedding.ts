// Embedding throughput of the default model on real code chunks of a repository.
import { chunkFile } from '../src/chunk/index.js';
import { loadEmbedder } from '../src/embed/index.js';
import { BlobReader } from '../src/git/blobs.js';
import { listTree } from '../src/git/tree.js';
import { embeddingText } from '../src/index/embed-blobs.js';

export async function measureEmbedding(repo: string, count = 2000): Promise<Record<string, number>> {
  const entries = (await listTree(repo, 'HEAD')).filter((e) => /\.(rs|ts|js|py|go|java)$/.test(e.path) && e.size < 200_000);
  const reader = new BlobReader(repo);
  const texts: string[] = [];
  for (const e of entries) {
    const bytes = await reader.read(e.blob);
    if (!bytes) continue;
    for (const c of await chunkFile(e.path, bytes.toString('utf8'))) texts.push(embeddingText(c));
    if (texts.length >= count) break;
  }
  await reader.close();
  const embedder = await loadEmbedder('default');
  await embedder.embed(texts.slice(0, 32));
  const t = performance.now();
  for (let i = 0; i < texts.length; i += 256) await embedder.embed(texts.slice(i, i + 256));
  const seconds = (performance.now() - t) / 1000;
  await embedder.close();
  const avgChars = texts.reduce((a, s) => a + s.length, 0) / texts.length;
  return { chunks: texts.length, avgChars: Math.round(avgChars), chunksPerSecond: Math.round(texts.length / seconds) };
}
