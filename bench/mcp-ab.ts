// node --import tsx bench/mcp-ab.ts --base DIST [--rounds N] [--queries sympy] REPO: search_code of two `ocrag mcp`
// servers of one repository driven from one process, another build's (DIST: its dist/ folder, e.g. a copy of
// main's) and this one's, each query asked of both in turn, who goes first alternating. Under load that moves every
// time between runs, only timings taken side by side compare. Round 1 is each query's first sight (a server keeps
// rows between searches); the later rounds repeat. Prints both p50s (round trip, and in the server), the median of
// the per-query ratios (this / base), the load, and how many answers differ (latency blanked: must be 0).
// Queries: bench/mcp.ts's (what bench/ratios.ts asks of sympy too), or --queries sympy for ten of sympy's own.
// --fresh: both servers started anew for every round (which first alternating), so every round is a first sight.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { option, positional } from './argv.js';
import { MCP_QUERIES } from './mcp-queries.js';
import { percentile } from './stats.js';

const SYMPY = [
  'solve a system of linear equations', 'simplify trigonometric expressions', 'Matrix.inv', 'series expansion around a point', 'integrate rational functions',
  'pretty printing of fractions', 'groebner basis', 'lambdify', 'assumptions positive integer', 'where is the derivative of a product computed',
];
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = option('--base');
const repo = positional(process.argv.slice(2).filter((a) => a !== '--fresh'));
if (!base || !repo) throw new Error('usage: bench/mcp-ab.ts --base DIST [--rounds N] [--queries sympy] [--fresh] REPO');
const fresh = process.argv.includes('--fresh');
const rounds = Number(option('--rounds', '5'));
const queries = option('--queries') === 'sympy' ? SYMPY : MCP_QUERIES;

async function start(dist: string): Promise<Client> {
  const client = new Client({ name: 'ocrag-ab', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(dist, 'cli', 'main.js'), 'mcp'], cwd: path.resolve(repo!), stderr: 'ignore' }));
  return client;
}

async function ask(client: Client, query: string): Promise<{ ms: number; serverMs: number; answer: string }> {
  const t = performance.now();
  const r = (await client.callTool({ name: 'search_code', arguments: { query, k: 10 } })) as CallToolResult;
  const ms = performance.now() - t;
  const s = r.structuredContent as { latencyMs: number };
  return { ms, serverMs: s.latencyMs, answer: JSON.stringify({ isError: r.isError ?? false, structured: { ...s, latencyMs: 0 } }) };
}

const dists = { base: path.resolve(base), this: path.join(ROOT, 'dist') };
const servers = { base: await start(dists.base), this: await start(dists.this) };
const first: number[] = [];
const times = { base: [] as number[], this: [] as number[], baseServer: [] as number[], thisServer: [] as number[], ratio: [] as number[] };
const loads: number[] = [];
let differ = 0;
try {
  for (let round = 0; round < rounds; round++) {
    loads.push(os.loadavg()[0]);
    if (fresh && round > 0) {
      await Promise.all([servers.base.close(), servers.this.close()]);
      for (const who of round % 2 ? (['this', 'base'] as const) : (['base', 'this'] as const)) servers[who] = await start(dists[who]);
    }
    for (const [i, query] of queries.entries()) {
      const order = (round + i) % 2 === 0 ? (['base', 'this'] as const) : (['this', 'base'] as const);
      const got: Record<string, Awaited<ReturnType<typeof ask>>> = {};
      for (const who of order) got[who] = await ask(servers[who], query);
      if (got.base.answer !== got.this.answer) {
        differ++;
        console.log(`DIFFERS round ${round + 1}: "${query}"`);
      }
      if (round === 0 || fresh) {
        first.push(got.this.ms / got.base.ms);
        continue;
      }
      times.base.push(got.base.ms);
      times.this.push(got.this.ms);
      times.baseServer.push(got.base.serverMs);
      times.thisServer.push(got.this.serverMs);
      times.ratio.push(got.this.ms / got.base.ms);
    }
  }
} finally {
  await Promise.all([servers.base.close(), servers.this.close()]);
}
const ms = (v: number[]) => `${percentile(v, 50).toFixed(1)} ms`;
console.log(`${repo}: ${queries.length} queries × ${rounds} rounds, ${differ} answers differ; load ${loads.map((l) => l.toFixed(1)).join(' ')}`);
console.log(`first sight: median ratio this/base ${percentile(first, 50).toFixed(2)}`);
if (!fresh) console.log(`repeated: base p50 ${ms(times.base)} (in server ${ms(times.baseServer)}), this p50 ${ms(times.this)} (in server ${ms(times.thisServer)}), median ratio this/base ${percentile(times.ratio, 50).toFixed(2)}`);
process.exitCode = differ ? 1 : 0;
