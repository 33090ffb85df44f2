import type { Command } from 'commander';
import picomatch from 'picomatch';
import { currentManifest } from '../../index/context.js';
import { folderManifest } from '../../index/folder.js';
import { asStoreDamage } from '../../store/damage.js';
import { readMeta } from '../../store/meta.js';
import { openStore, storeExists } from '../../store/open-store.js';
import { listSources } from '../../service/sources.js';
import { sourceAwareGlobs } from '../../store/sources.js';
import { UsageError } from '../../util/errors.js';
import { openIndex } from '../options.js';
import { printJson } from '../output.js';

/**
 * Where a listed file's content comes from: HEAD as indexed, the work tree that search sees on top of it, an added
 * source, a plain folder's own files (`folder`); `skipped`: a source's file left out, with its reason.
 */
type FileState = 'committed' | 'modified' | 'untracked' | 'source' | 'folder' | 'skipped';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the files search sees (the checked-out commit, uncommitted edits, untracked files and added sources) with their chunk counts')
    .argument('[glob]', "only paths matching this glob, e.g. 'src/**/*.ts'")
    .option('--committed-only', 'only the files of the checked-out commit, as indexed')
    .option('--json', 'print [{path, blob, chunks, state}] as JSON (state: committed, modified, untracked or source)')
    .addHelpText('after', '\nEdited and untracked files are listed as search sees them: their new content is embedded first, as a search would.')
    .action(async (glob: string | undefined, opts: { json?: boolean; committedOnly?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd, {}, 'existing');
      const plain = !!index.ctx.plainFolder;
      const manifest = plain ? folderManifest(index.ctx) : currentManifest(index.ctx);
      const meta = readMeta(index.ctx.layout.meta);
      if (!manifest || !meta || !storeExists(index.ctx.layout)) throw new UsageError(`nothing indexed ${plain ? 'in this folder' : 'for this commit'} yet: run "ocrag index"`, 4);
      const view = opts.committedOnly && !plain ? manifest : await index.currentView({ update: false });
      const counts = await openStore(index.ctx.layout, meta.dim, { create: false })
        .then(async (store) => {
          try {
            return await store.chunkCounts();
          } finally {
            store.close();
          }
        })
        .catch((e) => Promise.reject(asStoreDamage(e, index.ctx.layout.tables)));
      const match = glob ? picomatch(sourceAwareGlobs(glob), { dot: true }) : () => true;
      const sources = new Set(listSources(index.ctx).map((s) => `${s.name}:`));
      const isSource = (path: string) => sources.has(path.slice(0, path.indexOf(':') + 1));
      const stateOf = (path: string, blob: string): FileState =>
        manifest.files[path] === blob ? 'committed' : path in manifest.files ? 'modified' : isSource(path) ? 'source' : plain ? 'folder' : 'untracked';
      const rows: { path: string; blob: string; chunks: number; state: FileState; reason?: string }[] = Object.entries(view.files)
        .filter(([path]) => match(path))
        .map(([path, blob]) => ({ path, blob, chunks: counts.get(blob) ?? 0, state: stateOf(path, blob) }));
      // A source's skipped files follow, each with its reason (past its size limit, too large, binary…): they were asked for.
      for (const [path, reason] of Object.entries(view.skipped)) if (!(path in manifest.skipped) && (plain || isSource(path)) && match(path)) rows.push({ path, blob: view.skippedBlobs[path] ?? '', chunks: 0, state: 'skipped', reason });
      if (opts.json) return printJson(rows);
      const width = Math.max(1, ...rows.map((r) => String(r.chunks).length));
      const mark = (r: (typeof rows)[number]) => (r.state === 'committed' || r.state === 'folder' ? '' : r.reason ? `  (skipped: ${r.reason})` : `  (${r.state})`);
      process.stdout.write(rows.map((r) => `${String(r.chunks).padStart(width)}  ${r.path}${mark(r)}`).join('\n') + (rows.length ? '\n' : ''));
    });
}
