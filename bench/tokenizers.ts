// The default model's tokenizer three ways, and the chunk texts an index run embeds: shared by bench/tokenize.ts
// (which compares the ways) and bench/index-cpu.ts (which sets an index run's CPU against tokenizing).
import fs from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { chunkFile } from '../src/chunk/index.js';
import { tokenizerFrom } from '../src/embed/runtime/fast-unigram.js';
import { fusedTokenIds } from '../src/embed/runtime/fused-tokenizer.js';
import { BlobReader } from '../src/git/blobs.js';
import { listTree } from '../src/git/tree.js';
import { embeddingText } from '../src/index/embed-blobs.js';
import { BoundedMemo } from '../src/util/bounded-memo.js';

/** The texts an index run embeds: HEAD's files chunked as `ocrag index` chunks them (binary and > 1 MB skipped). */
export async function chunkTexts(repo: string): Promise<string[]> {
  const reader = new BlobReader(repo);
  const texts: string[] = [];
  for (const e of await listTree(repo, 'HEAD')) {
    if (e.size > 1_000_000) continue;
    const bytes = await reader.read(e.blob);
    if (!bytes || bytes.subarray(0, 8192).includes(0)) continue;
    for (const c of await chunkFile(e.path, bytes.toString('utf8'))) texts.push(embeddingText(c));
  }
  await reader.close();
  return texts;
}

export type Ids = (text: string) => number[];

export function makers(dir: string): Record<string, () => Ids> {
  const json = () => JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const encode = (t: Tokenizer): Ids => (text) => t.encode(text, { add_special_tokens: true }).ids;
  return {
    library: () => encode(new Tokenizer(json(), config)),
    memo: () => {
      const t = tokenizerFrom(json(), config);
      const model = t.model as unknown as { tokenize: (word: string) => string[] };
      const tokenize = model.tokenize.bind(model);
      const memo = new BoundedMemo<string, string[]>(200_000);
      model.tokenize = (word) => memo.get(word, tokenize).slice();
      return encode(t);
    },
    fused: () => {
      const j = json();
      const fused = fusedTokenIds(tokenizerFrom(j, config), j);
      if (!fused) throw new Error('the fused path does not take this tokenizer');
      return (text) => fused(text, Infinity);
    },
  };
}

/** CPU milliseconds (user + system) of tokenizing every text once with a fresh tokenizer: wall time on a loaded machine counts waiting. */
export function tokenizeCpuMs(make: () => Ids, texts: string[]): number {
  const ids = make();
  const start = process.cpuUsage();
  for (const text of texts) ids(text);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
