// node --import tsx bench/identical.ts --base DIST REPO… [--queries-of NAME=FILE]: whether this build's search answers
// are byte-identical to another build's (DIST: that build's dist/ folder, e.g. a copy of main's), for a change
// meant to make search faster without changing any answer. Ten queries per repository (named by the folder's last
// part: tokio, sympy and fastapi have their own, any other the generic ten), each asked three ways of both builds:
//   cli   `ocrag search --json -k 10` in a process of its own (OCRAG_WARM=0: never a running server's answer)
//   mcp   search_code (k 10) of one long-lived `ocrag mcp` server, the queries in turn, then all of them again (a
//         second round sees whatever a server kept from the first), latency fields blanked
// Prints each difference and a summary line; exits 1 when anything differs. Both builds use the same index.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { option } from './argv.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUERIES: Record<string, string[]> = {
  tokio: [
    'spawn a blocking task on a thread pool', 'JoinHandle::abort', 'broadcast channel lagging receiver', 'AsyncRead', 'cooperative scheduling budget',
    'oneshot channel sender dropped', 'interval tick missed behavior', 'LocalSet spawn_local', 'mutex lock owned guard', 'how does the io driver wake tasks on readiness',
  ],
  sympy: [
    'solve a system of linear equations', 'simplify trigonometric expressions', 'Matrix.inv', 'series expansion around a point', 'integrate rational functions',
    'pretty printing of fractions', 'groebner basis', 'lambdify', 'assumptions positive integer', 'where is the derivative of a product computed',
  ],
  fastapi: [
    'dependency injection with yield', 'OAuth2PasswordBearer', 'validate request body with pydantic', 'APIRouter include_router prefix', 'websocket endpoint',
    'background tasks after response', 'CORS middleware', 'HTTPException', 'openapi schema generation', 'upload a file',
  ],
};
const GENERIC = ['error handling', 'parse configuration', 'main entry point', 'read a file', 'tests for the parser', 'HTTP request', 'cache', 'logging', 'retry with backoff', 'connect to the database'];

const args = process.argv.slice(2);
const base = option('--base', undefined, args);
if (!base) throw new Error('usage: bench/identical.ts --base DIST REPO…');
const repos = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')).map((r) => path.resolve(r));
const builds = { base: path.resolve(base), this: path.join(ROOT, 'dist') };

function cliAnswer(dist: string, repo: string, query: string): string {
  const r = spawnSync(process.execPath, [path.join(dist, 'cli', 'main.js'), 'search', '--json', '-k', '10', '--', query], { cwd: repo, encoding: 'utf8', env: { ...process.env, OCRAG_WARM: '0' }, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${dist} search "${query}" in ${repo}: ${r.stderr}`);
  return r.stdout;
}

/** Every query's answer from one server, twice over; latencies blanked (structured and in the text's first line). */
async function mcpAnswers(dist: string, repo: string, queries: string[]): Promise<string[]> {
  const client = new Client({ name: 'ocrag-identical', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(dist, 'cli', 'main.js'), 'mcp'], cwd: repo, stderr: 'ignore' }));
  const out: string[] = [];
  try {
    for (const query of [...queries, ...queries]) {
      const r = (await client.callTool({ name: 'search_code', arguments: { query, k: 10 } })) as CallToolResult;
      const structured = { ...(r.structuredContent as Record<string, unknown>), latencyMs: 0 };
      const text = r.content.map((c) => (c.type === 'text' ? c.text.replace(/ \(\d+ ms\)/, ' (_ ms)') : JSON.stringify(c)));
      out.push(JSON.stringify({ isError: r.isError ?? false, structured, text }, null, 1));
    }
  } finally {
    await client.close();
  }
  return out;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at character ${i}: ${JSON.stringify(a.slice(Math.max(0, i - 80), i + 80))} vs ${JSON.stringify(b.slice(Math.max(0, i - 80), i + 80))}`;
}

let compared = 0;
let differ = 0;
const check = (what: string, a: string, b: string) => {
  compared++;
  if (a === b) return;
  differ++;
  console.log(`DIFFERS ${what}: ${firstDifference(a, b)}`);
};

for (const repo of repos) {
  const queries = QUERIES[path.basename(repo).replace(/^.*-/, '')] ?? GENERIC;
  for (const query of queries) check(`cli ${path.basename(repo)} "${query}"`, cliAnswer(builds.base, repo, query), cliAnswer(builds.this, repo, query));
  const [a, b] = [await mcpAnswers(builds.base, repo, queries), await mcpAnswers(builds.this, repo, queries)];
  a.forEach((answer, i) => check(`mcp ${path.basename(repo)} "${queries[i % queries.length]}" (round ${i < queries.length ? 1 : 2})`, answer, b[i]));
  console.log(`${path.basename(repo)}: ${queries.length} queries compared`);
}
console.log(`${compared} answers compared, ${differ} differ (base ${builds.base}, this ${builds.this})`);
process.exitCode = differ ? 1 : 0;
