import fs from 'node:fs';
import type { Command } from 'commander';
import { clearIndex } from '../../index/indexer.js';
import { asStoreDamage } from '../../store/damage.js';
import { withIndexLock } from '../../util/file-lock.js';
import { openIndex } from '../options.js';
import { printJson } from '../output.js';

export function registerClear(program: Command): void {
  program
    .command('clear')
    .description('delete this repository\'s index (vectors and manifests); .ocrag/config.json is kept')
    .option('--json', 'print what was removed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd, {}, 'existing');
      const { layout } = index.ctx;
      // After a run in progress (a rebuild's build folder is removed with the rest), never under it.
      const clear = async () => clearIndex(index.ctx);
      if (fs.existsSync(layout.dir)) await withIndexLock(layout.lock, (m) => process.stderr.write(`${m}\n`), clear).catch((e) => Promise.reject(asStoreDamage(e, layout.tables)));
      if (opts.json) printJson({ cleared: index.ctx.layout.dir });
      else process.stderr.write(`cleared the index in ${index.ctx.layout.dir}\n`);
    });
}
