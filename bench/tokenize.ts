// node --import tsx bench/tokenize.ts [repo ...]: the default model's tokenizer three ways on the chunk texts an
// index run embeds (each repository's HEAD, chunked as `ocrag index` chunks it), or on this repository's own
// corpus (test/embed/token-corpus.ts) when no repository is given. Checks the fused path's ids against the
// library's on every text, then times, in interleaved rounds on fresh tokenizers (cold memos, as a worker starts):
//   library  — @huggingface/tokenizers as configured by tokenizer.json
//   memo     — the library with the fast Unigram set-up and a word memo, as StaticEncoder had it before the fused
//              path (but with today's lattice search, unigram-lattice.ts)
//   fused    — fused-tokenizer.ts
// ROUNDS=0 only compares the ids.
import path from 'node:path';
import { buildDefaultModel } from '../src/embed/index.js';
import { EDGE_CASES, packageTexts, repositoryTexts } from '../test/embed/token-corpus.js';
import { chunkTexts, makers, tokenizeCpuMs } from './tokenizers.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = await buildDefaultModel();
  const ways = makers(dir);
  const sets: [string, string[]][] = [];
  const repos = process.argv.slice(2);
  if (repos.length === 0) sets.push(['ocrag corpus', [...EDGE_CASES, ...repositoryTexts().values(), ...packageTexts().values()]]);
  for (const repo of repos) sets.push([path.basename(repo), await chunkTexts(repo)]);
  for (const [name, texts] of sets) {
    const library = ways.library();
    const fused = ways.fused();
    const differ = texts.filter((text) => {
      const a = library(text);
      const b = fused(text);
      return a.length !== b.length || a.some((id, i) => id !== b[i]);
    }).length;
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (ROUNDS === 0) {
      console.log(`${name}: ${texts.length} texts, ${(chars / 1e6).toFixed(2)} M chars, ids differ on ${differ}`);
      continue;
    }
    const ms: Record<string, number[]> = { library: [], memo: [], fused: [] };
    for (let r = 0; r < ROUNDS; r++) for (const way of Object.keys(ms)) ms[way].push(tokenizeCpuMs(ways[way], texts));
    const m = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)]));
    console.log(
      `${name}: ${texts.length} texts, ${(chars / 1e6).toFixed(2)} M chars, ids differ on ${differ} | CPU, median of ${ROUNDS}: ` +
        `library ${m.library.toFixed(0)} ms, memo ${m.memo.toFixed(0)} ms, fused ${m.fused.toFixed(0)} ms ` +
        `(${(m.memo / m.fused).toFixed(2)}× memo, ${(m.library / m.fused).toFixed(2)}× library)`,
    );
  }
}

await main();
