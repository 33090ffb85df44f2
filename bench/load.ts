// node --import tsx bench/load.ts [--clients 20] [--searches 1000] [--servers 1|N] [--files 3000] [--commit-files 400] [--in-process] [--keep]
// Load on the MCP server (or, without src/mcp, on CodeIndex in this process): `clients` callers keep
// `search_code` requests in flight until `searches` have been answered, while the repository changes under them:
// at 20% a commit adds `commit-files` files (a re-index runs), at 50% the work tree switches to another branch. Checks: no
// errors, and no answer to a request sent after the switch names a file that exists only on the old branch.
// `--servers 1` (default): one server, all clients share its connection (many requests in flight on one pipe);
// `--servers N`: clients spread over N server processes, each with its own model and index handle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticFiles, writeSyntheticRepo } from '../fixtures/synthetic-repo.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const CLIENTS = flag('--clients', 20);
const SEARCHES = flag('--searches', 1000);
const SERVERS = flag('--servers', 1);
const FILES = flag('--files', 3000);
const COMMIT_FILES = flag('--commit-files', 400);
const MCP = fs.existsSync(path.join(ROOT, 'dist', 'mcp', 'server.js')) && !args.includes('--in-process');

const STALE_QUERY = 'markerOnlyOnMain markerOnlyOnFeature which branch is this';
const QUERIES = ['validate the payment invoice', 'retry a failed webhook delivery', 'parse the session token', 'schedule a report export', 'resolve the tenant quota', 'flush the message queue', 'render the dashboard widget', 'sync the warehouse stock', STALE_QUERY];

interface Answer {
  paths: string[];
  notice?: string;
}
type Search = (query: string) => Promise<Answer>;

const env = { ...process.env, GIT_AUTHOR_NAME: 'Load', GIT_AUTHOR_EMAIL: 'load@example.invalid', GIT_COMMITTER_NAME: 'Load', GIT_COMMITTER_EMAIL: 'load@example.invalid' };
const git = (repo: string, ...a: string[]) => execFileSync('git', a, { cwd: repo, env, encoding: 'utf8' }).trim();
const marker = (word: string) => `/** ${word}: which branch is this. */\nexport function ${word}(): string {\n  return '${word}';\n}\n`;

function writeAll(repo: string, files: Iterable<{ path: string; content: string }>): void {
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(repo, f.path)), { recursive: true });
    fs.writeFileSync(path.join(repo, f.path), f.content);
  }
}

/** main and feature differ by one marker file each (and feature has 300 more files); main is indexed. */
async function prepare(): Promise<string> {
  const repo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-load-')), 'repo');
  await writeSyntheticRepo(repo, { files: FILES, seed: 11 });
  git(repo, 'checkout', '-q', '-b', 'feature');
  writeAll(repo, [{ path: 'branch/feature-only.ts', content: marker('markerOnlyOnFeature') }, ...syntheticFiles(300, 12, 'feature')]);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'feature');
  git(repo, 'checkout', '-q', 'main');
  writeAll(repo, [{ path: 'branch/main-only.ts', content: marker('markerOnlyOnMain') }]);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'main');
  execFileSync(process.execPath, [CLI, 'index'], { cwd: repo, stdio: 'inherit' });
  return repo;
}

async function mcpClients(repo: string): Promise<{ searches: Search[]; close: () => Promise<void> }> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const servers = await Promise.all(
    Array.from({ length: SERVERS }, async (_, i) => {
      const client = new Client({ name: `ocrag-load-${i}`, version: '0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: repo, env: env as Record<string, string>, stderr: 'ignore' }));
      return client;
    }),
  );
  const searches = Array.from({ length: CLIENTS }, (_, i): Search => async (query) => {
    const r = (await servers[i % SERVERS].callTool({ name: 'search_code', arguments: { query, k: 10 } }, undefined, { timeout: 120_000 })) as { isError?: boolean; content: { text?: string }[]; structuredContent?: { results: { path: string }[]; notice?: string } };
    if (r.isError) throw new Error(r.content.map((c) => c.text).join(' '));
    return { paths: r.structuredContent!.results.map((x) => x.path), notice: r.structuredContent!.notice };
  });
  return { searches, close: async () => void (await Promise.all(servers.map((s) => s.close()))) };
}

async function inProcessClients(repo: string): Promise<{ searches: Search[]; close: () => Promise<void> }> {
  const { CodeIndex } = await import('../src/service/code-index.js');
  const index = await CodeIndex.open(repo, {}, {}, { keepStoreOpen: true });
  const search: Search = async (query) => ({ paths: (await index.search(query, { k: 10 })).map((r) => r.path) });
  return { searches: Array.from({ length: CLIENTS }, () => search), close: () => index.close() };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const repo = await prepare();
  const { searches, close } = MCP ? await mcpClients(repo) : await inProcessClients(repo);
  await Promise.all(searches.map((s) => s(QUERIES[0])));
  console.log(`load: ${CLIENTS} clients, ${SEARCHES} searches, ${MCP ? `MCP over stdio, ${SERVERS} server process(es)` : 'CodeIndex in-process'}; ${FILES} files; ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`);

  let issued = 0;
  let answered = 0;
  let switchedAt = Infinity;
  let commitAt = Infinity;
  const latencies: { ms: number; phase: string }[] = [];
  const errors: string[] = [];
  const stale: string[] = [];
  let notices = 0;
  let changing: Promise<void> = Promise.resolve();

  const onProgress = () => {
    if (answered === Math.floor(SEARCHES * 0.2)) {
      changing = changing.then(() => {
        writeAll(repo, syntheticFiles(COMMIT_FILES, 13, 'added'));
        git(repo, 'add', '-A');
        git(repo, 'commit', '-q', '-m', `${COMMIT_FILES} more files`);
        commitAt = performance.now();
        console.log(`  at ${answered}: committed ${COMMIT_FILES} files on main (the next searches start a re-index)`);
      });
    }
    if (answered === Math.floor(SEARCHES * 0.5)) {
      changing = changing.then(() => {
        git(repo, 'checkout', '-q', 'feature');
        switchedAt = performance.now();
        console.log(`  at ${answered}: switched the work tree to feature`);
      });
    }
  };

  const started = performance.now();
  await Promise.all(
    searches.map(async (search, client) => {
      while (issued < SEARCHES) {
        const query = QUERIES[(issued + client) % QUERIES.length];
        issued++;
        const sent = performance.now();
        const phase = sent > switchedAt ? 'after switch' : sent > commitAt ? 'after commit' : 'steady';
        try {
          const answer = await search(query);
          if (answer.notice) notices++;
          if (sent > switchedAt && answer.paths.includes('branch/main-only.ts')) stale.push(`${query} → ${answer.paths.join(', ')}`);
          latencies.push({ ms: performance.now() - sent, phase });
        } catch (e) {
          errors.push(`${phase}: ${(e as Error).message}`);
        }
        answered++;
        onProgress();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await changing;
  const afterSwitch = await searches[0](STALE_QUERY);
  await close();

  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`answered ${latencies.length}/${SEARCHES} in ${seconds.toFixed(1)} s (${(latencies.length / seconds).toFixed(1)} searches/s); errors ${errors.length}; stale-branch answers ${stale.length}; answers with a notice ${notices}`);
  for (const phase of ['steady', 'after commit', 'after switch', 'all']) {
    const values = latencies.filter((l) => phase === 'all' || l.phase === phase).map((l) => l.ms);
    if (values.length) console.log(`  ${phase.padEnd(13)} n=${String(values.length).padStart(4)}  p50 ${ms(percentile(values, 50))}  p90 ${ms(percentile(values, 90))}  p99 ${ms(percentile(values, 99))}  max ${ms(Math.max(...values))}`);
  }
  for (const e of errors.slice(0, 5)) console.log(`  error: ${e}`);
  for (const s of stale.slice(0, 5)) console.log(`  stale: ${s}`);
  const finalOk = afterSwitch.paths.includes('branch/feature-only.ts') && !afterSwitch.paths.includes('branch/main-only.ts');
  console.log(`final answer on feature: ${finalOk ? 'ok' : `WRONG (${afterSwitch.paths.join(', ')})`}`);
  if (!args.includes('--keep')) fs.rmSync(path.dirname(repo), { recursive: true, force: true });
  process.exitCode = errors.length || stale.length || !finalOk ? 1 : 0;
}

await main();
