// The OpenCode plugin's tool-call latency as an agent sees it: `ocrag setup opencode` in a copy of a repository,
// the written plugin loaded as OpenCode loads it, ocrag_search_code called N times (the first, which indexes, apart).
// Prints p50 / p90 / max of the warm calls. `npm run bench:plugin -- [--cli dist/cli/main.js] [--repo DIR] [--calls N]`
// (--cli of another build measures that build's plugin: the one before the host measured one process per call).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const cli = path.resolve(arg('--cli', path.join(ROOT, 'dist/cli/main.js')));
const source = path.resolve(arg('--repo', ROOT));
const calls = Number(arg('--calls', '20'));
const QUERIES = ['parse command line arguments', 'where is the config file read', 'retry with backoff', 'render search results as markdown', 'lock file', '索引 分支', 'exit codes', 'chunk a file by its syntax tree'];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-bench-plugin-'));
const repo = path.join(work, 'repo');
execFileSync('git', ['clone', '-q', '--no-hardlinks', source, repo]);
execFileSync(process.execPath, [cli, 'setup', 'opencode'], { cwd: repo, stdio: 'ignore' });
const modules = path.join(repo, '.opencode', 'node_modules', '@opencode-ai');
fs.mkdirSync(modules, { recursive: true });
fs.symlinkSync(path.join(ROOT, 'node_modules', '@opencode-ai', 'plugin'), path.join(modules, 'plugin'));
// Node takes a .ts outside a "type": "module" package for CommonJS: the same bytes as .mts load as OpenCode loads them.
const asModule = path.join(work, 'ocrag.mts');
fs.copyFileSync(path.join(repo, '.opencode', 'plugin', 'ocrag.ts'), asModule);
fs.symlinkSync(path.join(repo, '.opencode', 'node_modules'), path.join(work, 'node_modules'));
type Tool = { execute(args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<string> };
const plugin = (await import(pathToFileURL(asModule).href)) as { OcragPlugin: (input: unknown) => Promise<{ tool: Record<string, Tool> }> };
const { tool } = await plugin.OcragPlugin({ directory: repo, worktree: repo, project: {}, client: {}, $: undefined, serverUrl: new URL('http://127.0.0.1:1') });
const ctx = { sessionID: 's', messageID: 'm', agent: 'build', directory: repo, worktree: repo, abort: new AbortController().signal, metadata: () => undefined, ask: async () => undefined };

const first = performance.now();
await tool.ocrag_search_code.execute({ query: QUERIES[0], k: 5 }, ctx);
const firstMs = performance.now() - first;
const times: number[] = [];
for (let i = 0; i < calls; i++) {
  const started = performance.now();
  await tool.ocrag_search_code.execute({ query: QUERIES[i % QUERIES.length], k: 5 }, ctx);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(0);
console.log(`plugin ocrag_search_code (${path.relative(process.cwd(), cli) || cli}, ${path.basename(source)}): first ${firstMs.toFixed(0)} ms (indexes); ${calls} warm calls p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
fs.rmSync(work, { recursive: true, force: true });
process.exit(0);
