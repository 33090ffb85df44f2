// node --import tsx bench/team-floor.ts [repo] [--base DIST]: what s3rver alone costs a fresh clone's read-through.
// Publishes the repository's HEAD to s3rver (bench/team-server.ts), then, in fresh clones, interleaved: `ocrag index`
// reading through the remote (this build, and --base's if given), and a plain parallel GET of every object the
// remote holds for the prefix (the floor: the same bytes, no ranges, no LanceDB, nothing checked). Prints numbers.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderBytes, startBenchS3 } from './team-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 3;
/** GETs under way at once in the floor (LanceDB's own reads run about this many). */
const GETS_AT_ONCE = 8;

function cli(dist: string, args: string[], cwd: string, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dist, 'cli', 'main.js'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => (code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`ocrag ${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** Every object key under the bucket's folder, as s3rver lays them out (`<key>._S3rver_object`). */
function objectKeys(bucketDir: string): string[] {
  const suffix = '._S3rver_object';
  return fs
    .readdirSync(bucketDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => path.relative(bucketDir, path.join(e.parentPath, e.name)).slice(0, -suffix.length));
}

async function getAll(endpoint: string, keys: string[]): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  let bytes = 0;
  const queue = [...keys];
  const agent = new http.Agent({ keepAlive: true, maxSockets: GETS_AT_ONCE });
  const one = (key: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(`${endpoint}/team/${key.split('/').map(encodeURIComponent).join('/')}`, { agent }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`GET ${key}: ${res.statusCode}`));
          res.on('data', (b: Buffer) => (bytes += b.length));
          res.on('end', resolve);
        })
        .on('error', reject);
    });
  await Promise.all(Array.from({ length: GETS_AT_ONCE }, async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) await one(key);
  }));
  agent.destroy();
  return { seconds: (performance.now() - started) / 1000, bytes };
}

async function main(): Promise<void> {
  const repo = path.resolve(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--base') ?? '/tmp/bench-tokio');
  const baseAt = process.argv.indexOf('--base');
  const builds: [string, string][] = [['this', path.join(ROOT, 'dist')], ...(baseAt > 0 ? [['base', path.resolve(process.argv[baseAt + 1])] as [string, string]] : [])];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-team-floor-'));
  const s3 = await startBenchS3();
  const remote = { ...s3.env, OCRAG_REMOTE: 's3://team/org/floor' };
  const clone = (name: string) => {
    const dir = path.join(work, name);
    const r = spawnSync('git', ['clone', '-q', '--no-hardlinks', repo, dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return dir;
  };
  const times: Record<string, number[]> = { floor: [] };
  const loads = [+os.loadavg()[0].toFixed(2)];
  try {
    await cli(builds[0][1], ['publish', '--json'], clone('ci'), remote);
    const keys = objectKeys(path.join(s3.directory, 'team'));
    let fetched: Record<string, number> = {};
    let floorBytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, dist] of builds) {
        const dir = clone(`${name}-${round}`);
        s3.reset();
        (times[name] ??= []).push(await cli(dist, ['index', '--json'], dir, remote));
        fetched[name] = s3.bytesOut();
      }
      s3.reset();
      const floor = await getAll(s3.env.AWS_ENDPOINT_URL, keys);
      times.floor.push(floor.seconds);
      floorBytes = floor.bytes;
      loads.push(+os.loadavg()[0].toFixed(2));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(JSON.stringify({
      repo: path.basename(repo),
      loadAverage1m: loads,
      objects: keys.length,
      remoteStoreMiB: +(folderBytes(path.join(s3.directory, 'team')) / 2 ** 20).toFixed(1),
      floorGetMiB: +(floorBytes / 2 ** 20).toFixed(1),
      fetchedMiB: Object.fromEntries(Object.entries(fetched).map(([k, v]) => [k, +(v / 2 ** 20).toFixed(1)])),
      seconds: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.map((s) => +s.toFixed(2))])),
      medianSeconds: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, +median(v).toFixed(2)])),
    }, null, 2));
  } finally {
    await s3.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
