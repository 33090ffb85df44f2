// node --import tsx bench/mcp.ts [repo] [--queries N] [--profile DIR] [--json FILE]: latency of `ocrag mcp` as an agent sees it, over stdio
// with the SDK client. Prints numbers; asserts nothing. Default repo: /tmp/bench-repos/tokio (indexed first if needed).
//   start → first answer: spawn the server, initialize, one search_code (model and index on disk, page cache warm)
//   search p50/p90/p99: round trips of search_code after a warm-up with other queries (WARM_UP_QUERIES), cycling
//     through MCP_QUERIES (nothing changes); the first pass over them, queries the server has not seen, is reported
//     on its own and gives the ratio to rg (a server that kept answers would show only in the repeated ones)
//   after an edit: the first search after an uncommitted file change (git status + re-embedding that file)
//   against rg: each search_code round trip is followed by `rg -n -i` for the query's longest word over the same
//   tree (a process per search, as an agent runs it), so both p50s come from one interleaved run (skipped without rg)
//   server memory: the server's resident set after those searches, and its peak (Linux /proc; skipped elsewhere)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeJsonResult } from './json-result.js';
import { MCP_QUERIES, WARM_UP_QUERIES } from './mcp-queries.js';
import { percentile } from './stats.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');

const args = process.argv.slice(2);
const queriesAt = args.indexOf('--queries');
const rounds = queriesAt >= 0 ? Number(args.splice(queriesAt, 2)[1]) : 200;
const jsonAt = args.indexOf('--json');
const jsonArgs = jsonAt >= 0 ? args.splice(jsonAt, 2) : [];
const profileAt = args.indexOf('--profile');
/** --profile DIR: the server writes a CPU profile there (node --cpu-prof), to see where a search's time goes. */
const profileDir = profileAt >= 0 ? path.resolve(args.splice(profileAt, 2)[1]) : undefined;
const repo = path.resolve(args[0] ?? '/tmp/bench-repos/tokio');

function ocrag(cliArgs: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...cliArgs], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ocrag ${cliArgs.join(' ')}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

let serverPid: number | null = null;

async function start(): Promise<Client> {
  const client = new Client({ name: 'ocrag-bench', version: '0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), CLI, 'mcp'], cwd: repo, stderr: 'ignore' });
  await client.connect(transport);
  serverPid = transport.pid;
  return client;
}

/** The server's resident and peak memory in MB (VmRSS, VmHWM), or null where /proc does not say. */
function serverMemory(): { rssMb: number; peakMb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${serverPid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

async function search(client: Client, query: string): Promise<{ ms: number; serverMs: number; results: number }> {
  const t = performance.now();
  const r = (await client.callTool({ name: 'search_code', arguments: { query, k: 10 } })) as CallToolResult;
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`search_code "${query}": ${JSON.stringify(r.content)}`);
  const s = r.structuredContent as { latencyMs: number; results: unknown[] };
  return { ms, serverMs: s.latencyMs, results: s.results.length };
}

/** One `rg` over the repository for the query's longest word, output read as an agent's shell reads it; its wall time. */
function rg(query: string): number {
  const word = query.split(/[^\w]+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  const t = performance.now();
  spawnSync('rg', ['-n', '-i', '--', word], { cwd: repo, encoding: 'utf8', maxBuffer: 256 << 20 });
  return performance.now() - t;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const status = JSON.parse(ocrag(['index', '--json'])) as { chunksTotal: number | null; files: number };
  const chunks = (JSON.parse(ocrag(['status', '--json'])) as { chunks: number }).chunks;
  console.log(`repository   ${repo}: ${status.files} files, ${chunks} chunks`);
  console.log(`machine      ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const client = await start();
    await search(client, MCP_QUERIES[i]);
    starts.push(performance.now() - t);
    await client.close();
  }
  console.log(`start → first answer   median ${fmt(percentile(starts, 50))}  (runs: ${starts.map((s) => s.toFixed(0)).join(', ')} ms)`);

  const client = await start();
  for (const q of WARM_UP_QUERIES) await search(client, q);
  const trips: number[] = [];
  const inServer: number[] = [];
  const rgTimes: number[] = [];
  const hasRg = spawnSync('rg', ['--version']).status === 0;
  for (let i = 0; i < rounds; i++) {
    const query = MCP_QUERIES[i % MCP_QUERIES.length];
    const r = await search(client, query);
    trips.push(r.ms);
    inServer.push(r.serverMs);
    if (hasRg) rgTimes.push(rg(query));
  }
  // The first pass over MCP_QUERIES: each asked for the first time.
  const firstSight = Math.min(rounds, MCP_QUERIES.length);
  const [newTrips, newInServer, newRg] = [trips, inServer, rgTimes].map((all) => all.slice(0, firstSight));
  const [againTrips, againInServer, againRg] = [trips, inServer, rgTimes].map((all) => all.slice(firstSight));
  const line = (what: string, t: number[], s: number[]) => console.log(`search_code, ${what}   p50 ${fmt(percentile(t, 50))}  p90 ${fmt(percentile(t, 90))}  p99 ${fmt(percentile(t, 99))}  (in server: p50 ${fmt(percentile(s, 50))}, p90 ${fmt(percentile(s, 90))})`);
  line(`${firstSight} queries not seen before`, newTrips!, newInServer!);
  if (againTrips!.length) line(`${againTrips!.length} asked again`, againTrips!, againInServer!);
  const ratio = hasRg ? percentile(newTrips!, 50) / percentile(newRg!, 50) : null;
  if (hasRg) console.log(`rg -n -i <longest word>, interleaved   p50 ${fmt(percentile(newRg!, 50))} (not seen before), ${againRg!.length ? fmt(percentile(againRg!, 50)) : '-'} (again)   search_code/rg p50 ${ratio!.toFixed(2)}× (not seen before)${againRg!.length ? `, ${(percentile(againTrips!, 50) / percentile(againRg!, 50)).toFixed(2)}× (again)` : ''}`);
  else console.log('rg not found: the comparison with rg is skipped (apt-get install ripgrep)');
  const memory = serverMemory();
  if (memory) console.log(`server memory   ${memory.rssMb.toFixed(0)} MB resident, peak ${memory.peakMb.toFixed(0)} MB`);
  const result = {
    repo: path.basename(repo),
    chunks,
    serverRssMb: memory?.rssMb ?? null,
    searchP50Ms: percentile(newTrips!, 50),
    rgP50Ms: hasRg ? percentile(newRg!, 50) : null,
    ratio,
    againP50Ms: againTrips!.length ? percentile(againTrips!, 50) : null,
    againRatio: hasRg && againRg!.length ? percentile(againTrips!, 50) / percentile(againRg!, 50) : null,
    load: os.loadavg()[0],
  };

  const scratch = path.join(repo, 'ocrag-bench-scratch.rs');
  const afterEdit: number[] = [];
  try {
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(scratch, `// bench edit ${i}\npub fn bench_scratch_${i}() -> u32 { ${i} }\n`);
      afterEdit.push((await search(client, MCP_QUERIES[i])).ms);
    }
  } finally {
    fs.rmSync(scratch, { force: true });
  }
  console.log(`first search after an edit   median ${fmt(percentile(afterEdit, 50))}  (runs: ${afterEdit.map((s) => s.toFixed(0)).join(', ')} ms)`);
  await client.close();
  writeJsonResult({ ...result, afterEditMedianMs: percentile(afterEdit, 50) }, ['--json', ...jsonArgs.slice(1)]);
}

await main();
