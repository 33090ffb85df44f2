// Chunks identical across two builds: `node --import tsx bench/chunk-identical.ts --base OTHER/dist [--dist dist]
// REPO...`. Every file of each repository's HEAD that `ocrag index` reads with the default settings (selected as the
// index selects files, text classified as the index classifies it) is chunked by both builds' `chunkFile`, in one process, the
// two in turn file by file; any difference in any chunk (lines, language, symbols, text) is printed. Also prints each
// build's total chunking time (the two interleaved, so the load hits both alike). Asserts nothing; exit 1 on a difference.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BlobReader } from '../src/git/blobs.js';
import { shownPath } from '../src/git/path-key.js';
import { listTree } from '../src/git/tree.js';
import { DEFAULT_CONFIG } from '../src/config/config.js';
import { classifyContent, selectFiles } from '../src/index/select.js';
import { DEFAULT_CHUNK_OPTIONS, type Chunk } from '../src/chunk/index.js';
import { option, positionals } from './argv.js';

type ChunkFile = (path: string, text: string, options?: { maxLineChars?: number }) => Promise<Chunk[]>;

const base = option('--base');
const dist = option('--dist', 'dist');
const repos = positionals();
if (!base || !repos.length) throw new Error('usage: chunk-identical.ts --base OTHER/dist [--dist dist] REPO...');

async function load(distDir: string): Promise<ChunkFile> {
  const module = (await import(pathToFileURL(path.resolve(distDir, 'chunk', 'index.js')).href)) as { chunkFile: ChunkFile };
  return module.chunkFile;
}

const ways = [await load(base), await load(dist)];
const spent = [0, 0];
let files = 0;
let chunks = 0;
let differ = 0;
for (const repo of repos) {
  const reader = new BlobReader(repo);
  // The files an index run takes (size limit, lock files, generated, secrets, symlinks, submodules), as it takes them.
  for (const entry of selectFiles(await listTree(repo, 'HEAD'), DEFAULT_CONFIG).files) {
    const bytes = await reader.read(entry.blob);
    const content = bytes ? classifyContent(bytes, DEFAULT_CHUNK_OPTIONS.maxLineChars) : null;
    if (!content || 'reason' in content || 'pdf' in content) continue;
    const file = shownPath(entry.path);
    const results: string[] = [];
    // Alternate which build goes first, so neither always meets a warmer cache.
    const order = files % 2 === 0 ? [0, 1] : [1, 0];
    const out: Chunk[][] = [[], []];
    for (const way of order) {
      const started = performance.now();
      out[way] = await ways[way]!(file, content.text, { maxLineChars: DEFAULT_CHUNK_OPTIONS.maxLineChars });
      spent[way]! += performance.now() - started;
    }
    for (const result of out) results.push(JSON.stringify(result));
    files++;
    chunks += out[0]!.length;
    if (results[0] !== results[1]) {
      differ++;
      if (differ <= 20) console.log(`DIFFER ${repo} ${file}: ${out[0]!.length} vs ${out[1]!.length} chunks`);
    }
  }
  await reader.close();
}
console.log(`${files} files, ${chunks} chunks (base), ${differ} files differ`);
console.log(`chunking ms: base ${spent[0]!.toFixed(0)}, this ${spent[1]!.toFixed(0)} (ratio ${(spent[1]! / spent[0]!).toFixed(3)})`);
process.exit(differ ? 1 : 0);
