import type { Command } from 'commander';
import picomatch from 'picomatch';
import { currentManifest } from '../../index/context.js';
import { asStoreDamage } from '../../store/damage.js';
import { readMeta } from '../../store/meta.js';
import { openStore, storeExists } from '../../store/open-store.js';
import { UsageError } from '../../util/errors.js';
import { openIndex } from '../options.js';
import { printJson } from '../output.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the indexed files of the checked-out commit with their chunk counts')
    .argument('[glob]', "only paths matching this glob, e.g. 'src/**/*.ts'")
    .option('--json', 'print [{path, blob, chunks}] as JSON')
    .action(async (glob: string | undefined, opts: { json?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd);
      const manifest = currentManifest(index.ctx);
      const meta = readMeta(index.ctx.layout.meta);
      if (!manifest || !meta || !storeExists(index.ctx.layout)) throw new UsageError('nothing indexed for this commit yet: run "ocrag index"', 4);
      const counts = await openStore(index.ctx.layout, meta.dim, { create: false })
        .then(async (store) => {
          try {
            return await store.chunkCounts();
          } finally {
            store.close();
          }
        })
        .catch((e) => Promise.reject(asStoreDamage(e, index.ctx.layout.tables)));
      const match = glob ? picomatch(glob, { dot: true }) : () => true;
      const rows = Object.entries(manifest.files)
        .filter(([path]) => match(path))
        .map(([path, blob]) => ({ path, blob, chunks: counts.get(blob) ?? 0 }));
      if (opts.json) return printJson(rows);
      const width = Math.max(1, ...rows.map((r) => String(r.chunks).length));
      process.stdout.write(rows.map((r) => `${String(r.chunks).padStart(width)}  ${r.path}`).join('\n') + (rows.length ? '\n' : ''));
    });
}
