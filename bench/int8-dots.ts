// node --import tsx bench/int8-dots.ts [--rows N] [--rounds N]: the resident search's cosine scan alone, in ns of CPU
// per chunk, three ways in interleaved rounds over the same rows (default 14,800 of the built model's 512 dimensions,
// tokio's view): the JavaScript loop (resident-index.ts's), the WebAssembly float kernel and the integer-limb one
// (int8-dots.ts, int8-limb-dots.ts). Queries are the built model's embeddings of bench/mcp.ts's; the float kernel is
// made to answer them by one component it cannot take in integers. Prints p50 and best; asserts nothing.
import os from 'node:os';
import { loadEmbedder } from '../src/embed/index.js';
import { int8DotKernel } from '../src/search/int8-dots.js';
import { queryLimbs } from '../src/search/int8-limb-dots.js';
import { option } from './argv.js';
import { MCP_QUERIES } from './mcp-queries.js';
import { percentile } from './stats.js';

const rows = Number(option('--rows', '14800'));
const rounds = Number(option('--rounds', '30'));
const embedder = await loadEmbedder('default', { onNotice: () => undefined });
const dim = embedder.dim;
let seed = 7;
const next = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const vectors = Int8Array.from({ length: rows * dim }, () => Math.floor(next() * 255) - 127);
const chunks = Int32Array.from({ length: rows & ~1 }, (_, i) => i);
const queries = await Promise.all(MCP_QUERIES.map((q) => embedder.embedQuery(q)));
await embedder.close();

function loop(query: Float32Array): Float64Array {
  const out = new Float64Array(chunks.length);
  for (let j = 0; j < chunks.length; j++) {
    const base = chunks[j] * dim;
    let [s0, s1, s2, s3] = [0, 0, 0, 0];
    for (let d = 0; d < dim; d += 4) {
      s0 += vectors[base + d] * query[d];
      s1 += vectors[base + d + 1] * query[d + 1];
      s2 += vectors[base + d + 2] * query[d + 2];
      s3 += vectors[base + d + 3] * query[d + 3];
    }
    out[j] = s0 + s1 + s2 + s3;
  }
  return out;
}

const kernel = int8DotKernel(dim)!;
const asFloat = (q: Float32Array) => Float64Array.from(q, (x, d) => (d === 5 ? Math.fround(1e-30) : x));
const ways: Record<string, (q: Float32Array) => unknown> = {
  'JavaScript loop': loop,
  'WASM float kernel': (q) => kernel(asFloat(q), vectors, rows, chunks),
  'WASM integer limbs': (q) => kernel(Float64Array.from(q), vectors, rows, chunks),
};
const integer = queries.filter((q) => queryLimbs(Float64Array.from(q))).length;
const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((w) => [w, []]));
for (const run of Object.values(ways)) run(queries[0]);
for (let r = 0; r < rounds; r++) {
  const q = queries[r % queries.length];
  for (const [name, run] of Object.entries(ways)) {
    // CPU time, not wall: on a loaded machine the wall counts other processes' turns.
    const t = process.cpuUsage();
    run(q);
    const used = process.cpuUsage(t);
    times[name].push(((used.user + used.system) * 1000) / chunks.length);
  }
}
console.log(`${rows} rows × ${dim}, ${rounds} interleaved rounds, ${integer}/${queries.length} queries take the integer path; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [name, t] of Object.entries(times)) console.log(`${name.padEnd(20)} p50 ${percentile(t, 50).toFixed(1)} ns/chunk  best ${Math.min(...t).toFixed(1)}  (${((percentile(t, 50) * chunks.length) / 1e6).toFixed(2)} ms a query)`);
