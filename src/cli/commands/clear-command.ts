import type { Command } from 'commander';
import { clearIndex } from '../../index/indexer.js';
import { openIndex } from '../options.js';
import { printJson } from '../output.js';

export function registerClear(program: Command): void {
  program
    .command('clear')
    .description('delete this repository\'s index (vectors and manifests); .ocrag/config.json is kept')
    .option('--json', 'print what was removed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd, {}, 'existing');
      clearIndex(index.ctx);
      if (opts.json) printJson({ cleared: index.ctx.layout.dir });
      else process.stderr.write(`cleared the index in ${index.ctx.layout.dir}\n`);
    });
}
