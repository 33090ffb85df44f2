import type { Command } from 'commander';
import { openIndex } from '../options.js';
import { printJson } from '../output.js';

export function registerClear(program: Command): void {
  program
    .command('clear')
    .description('delete this repository\'s index (vectors and manifests); .ocrag/config.json is kept')
    .option('--json', 'print what was removed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const workspace = await openIndex(cmd, {}, 'existing');
      const cleared = await workspace.clear();
      if (opts.json) printJson({ cleared });
      else process.stderr.write(`cleared the index in ${cleared}\n`);
    });
}
