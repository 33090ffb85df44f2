import type { Command } from 'commander';
import { openIndex } from '../options.js';
import { formatStatus } from '../../render/status.js';
import { paint, printJson } from '../output.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show what is indexed for the checked-out commit, what was skipped and why')
    .option('--json', 'print the status as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd, {}, 'existing');
      const s = await index.status();
      if (opts.json) return printJson(s);
      console.log(formatStatus(s, paint(process.stdout)));
    });
}
