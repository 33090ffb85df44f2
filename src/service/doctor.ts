import fs from 'node:fs';
import { loadConfig } from '../config/config.js';
import { describeModel } from '../embed/index.js';
import { HOOK_NAMES, hookStatus } from '../git/hook-files.js';
import { NotInRepositoryError, openRepoWithHead, type OpenedRepo } from '../git/repo.js';
import { git } from '../git/run.js';
import { currentManifest, isUpToDate, supersededDefaultModel } from '../index/manifest-state.js';
import { folderPlace } from '../index/kinds/folder.js';
import type { IndexContext } from '../index/index-context.js';
import { GIT } from '../index/kinds/git.js';
import { asStoreDamage } from '../store/damage.js';
import { indexFolderProblem } from '../store/index-folder.js';
import { findIndexedFolder, indexLayout } from '../store/layout.js';
import type { Manifest } from '../store/manifest.js';
import { readMeta, type StoreMeta } from '../store/meta.js';
import { openStore, storeExists } from '../store/open-store.js';
import type { Config } from '../config/config.js';
import { StoreDamageError } from '../util/errors.js';
import { damagedSnapshots, readViewRows } from './stored-rows.js';
import { countsOf, indexedFiles, type IndexCounts } from './index-counts.js';

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string;
  /** The index check's: files and chunks search sees (IndexCounts, index-counts.ts), the same numbers status shows. */
  counts?: IndexCounts;
}

/** Runs every health check it can; a failing one never stops the others. */
export async function runDoctor(cwd: string, flags: Partial<Config>): Promise<Check[]> {
  const checks: Check[] = [];
  const attempt = async (name: string, body: () => Promise<Omit<Check, 'name'>>) => {
    try {
      checks.push({ name, ...(await body()) });
    } catch (e) {
      checks.push({ name, status: 'fail', detail: (e as Error).message });
    }
  };
  await attempt('git', async () => ({ status: 'ok', detail: await git(['--version'], { cwd }) }));
  let place: Omit<IndexContext, 'config'> | null = null;
  await attempt('repository', async () => {
    const found = (place = await placeOf(cwd));
    if (!found) throw new Error(`not inside a git repository nor a folder indexed by ocrag: ${cwd}`);
    const { repo, head } = found;
    return found.kind.match<Omit<Check, 'name'>>({
      folder: () => ({ status: 'ok', detail: `${repo.root}: a plain folder (no git), indexed as a knowledge base` }),
      git: () => (head.commit ? { status: 'ok', detail: `${repo.root} on ${head.branch ?? 'detached HEAD'} @ ${head.commit.slice(0, 8)}` } : { status: 'fail', detail: `${repo.root}: no commits yet`, fix: 'commit something first' }),
    });
  });
  if (!place) return checks;
  const ctx = { ...(place as Omit<IndexContext, 'config'>), config: null as unknown as Config };
  let foreign = false;
  await attempt('index folder', async () => {
    const problem = await indexFolderProblem(ctx.layout);
    foreign = problem !== null;
    return problem ? { status: 'fail', detail: `${ctx.layout.dir} ${problem.why}`, fix: problem.fix } : { status: 'ok', detail: fs.existsSync(ctx.layout.dir) ? `${ctx.layout.dir} is ocrag's own` : `${ctx.layout.dir} (not made yet)` };
  });
  // Nothing more is read from a folder that is not ocrag's: its config and store are not the user's.
  if (foreign) return checks;
  await attempt('config', async () => {
    ctx.config = loadConfig(ctx.layout.config, flags);
    const file = fs.existsSync(ctx.layout.config) ? ctx.layout.config : 'defaults (no .ocrag/config.json)';
    return { status: 'ok', detail: file };
  });
  if (!ctx.config) return checks;
  await attempt('model', async () => {
    const info = await describeModel(ctx.config.model);
    if (!info.built && info.source === 'default') return { status: 'warn', detail: `${info.id} is not built yet`, fix: 'run "ocrag model build" (or let the first index run build it, ~10 s)' };
    if (!info.built && info.source === 'cache') return { status: 'fail', detail: `${info.id} is not in the model cache`, fix: `run "ocrag model pull ${info.id}"` };
    if (!info.built) return { status: 'fail', detail: `no complete model folder at ${info.path}`, fix: 'pass a Transformers.js model folder (config.json, tokenizer.json, onnx/model.onnx), or "ocrag model pull <owner/name>"' };
    if (info.problem) return { status: 'fail', detail: info.problem, fix: 'choose another model with --model or in .ocrag/config.json' };
    return { status: 'ok', detail: `${info.id} (${info.dim}-d) in ${info.path}` };
  });
  await attempt('index', async () => indexCheck(ctx as IndexContext));
  // A folder without git has no hooks to keep it current: every search scans it.
  await ctx.kind.match({ git: () => attempt('hooks', () => hooksCheck(ctx)), folder: async () => undefined });
  return checks;
}

/** The repository at `cwd` with HEAD, else (outside git) the nearest folder indexed by ocrag, else null. */
async function placeOf(cwd: string): Promise<Omit<IndexContext, 'config'> | null> {
  let opened: OpenedRepo;
  try {
    opened = await openRepoWithHead(cwd);
  } catch (e) {
    if (!(e instanceof NotInRepositoryError)) throw e;
    const root = findIndexedFolder(cwd);
    return root ? folderPlace(root) : null;
  }
  return { repo: opened.repo, head: opened.head, layout: indexLayout(opened.repo), kind: GIT };
}

async function indexCheck(ctx: IndexContext): Promise<Omit<Check, 'name'>> {
  const meta = readMeta(ctx.layout.meta);
  if (!meta) return { status: 'warn', detail: 'no index yet', fix: 'run "ocrag index"' };
  if (!storeExists(ctx.layout)) return { status: 'fail', detail: 'store folder is missing', fix: 'run "ocrag index --rebuild"' };
  let chunks = 0;
  let counts: IndexCounts = { files: 0, chunks: 0 };
  const manifest = currentManifest(ctx);
  try {
    const store = await openStore(ctx.layout, meta.dim, { create: false });
    try {
      // Reads a column of every data file: a missing or short one shows up here, not just in the row count.
      const perBlob = await store.chunkCounts();
      for (const n of perBlob.values()) chunks += n;
      counts = countsOf(indexedFiles(ctx, manifest), perBlob);
      // Then every row search reads for this branch, checked: a garbled data file shows up here.
      if (manifest) await readViewRows(store, Object.values(manifest.files));
    } finally {
      store.close();
    }
  } catch (e) {
    const damage = asStoreDamage(e, ctx.layout.tables);
    if (!(damage instanceof StoreDamageError)) throw e;
    return { status: 'fail', detail: `the store is damaged: ${damage.detail}`, fix: 'run "ocrag index --rebuild"' };
  }
  const seen = `${counts.files} files, ${counts.chunks} chunks search sees (${chunks} stored)`;
  const check = ctx.kind.match<Omit<Check, 'name'>>({
    folder: () => ({ status: 'ok', detail: `${seen}, model ${meta.modelId}; the folder's files are scanned by every search` }),
    git: () => commitCheck(ctx, manifest, seen, meta),
  });
  return { ...check, counts };
}

/** Whether HEAD's commit has a current index, and what to do when not. */
function commitCheck(ctx: IndexContext, manifest: Manifest | null, seen: string, meta: StoreMeta): Omit<Check, 'name'> {
  if (!manifest) return { status: 'warn', detail: `${seen}: this branch was never indexed`, fix: 'run "ocrag index"' };
  const snapshots = damagedSnapshots(ctx.layout, meta.dim);
  if (snapshots.length) return { status: 'warn', detail: `search snapshot damaged: ${snapshots.join('; ')}`, fix: 'nothing to do: the next search rebuilds it from the store' };
  const superseded = supersededDefaultModel(ctx);
  if (superseded) return { status: 'warn', detail: `built with the previous default model ${superseded}, which reads no Chinese`, fix: 'run "ocrag index" (search and hooks also do it): it re-embeds everything once' };
  if (!isUpToDate(ctx, manifest)) return { status: 'warn', detail: `indexed at ${manifest.commit.slice(0, 8)}, HEAD is ${ctx.head.commit?.slice(0, 8)}`, fix: 'run "ocrag index" (search also does it)' };
  return { status: 'ok', detail: `${seen}, model ${meta.modelId}` };
}

async function hooksCheck(ctx: IndexContext): Promise<Omit<Check, 'name'>> {
  const hooks = await hookStatus(ctx.repo);
  const risky = hooks.blocks.filter((b) => b.kind === 'runs tree code').map((b) => b.hook);
  if (risky.length) return { status: 'fail', detail: `${risky.join(', ')} hold an older ocrag block that runs ./node_modules/.bin/ocrag from the work tree, which a branch can replace`, fix: 'run "ocrag hooks install" to replace it' };
  if (hooks.blocks.some((b) => b.kind === 'outdated')) return { status: 'warn', detail: 'the ocrag hook blocks are of an older version', fix: 'run "ocrag hooks install" to replace them' };
  if (hooks.installed.length === HOOK_NAMES.length && !hooks.program) return { status: 'warn', detail: 'hooks installed, but no ocrag outside the work tree to start: they do nothing', fix: 'put ocrag on PATH, or run "ocrag hooks install --project-bin" to let them run ./node_modules/.bin/ocrag' };
  return hooks.installed.length === HOOK_NAMES.length
    ? { status: 'ok', detail: `${hooks.installed.join(', ')} keep the index current (${hooks.program})` }
    : { status: 'warn', detail: 'no git hooks: the index is updated when you search', fix: 'run "ocrag hooks install" to index in the background after each commit' };
}
