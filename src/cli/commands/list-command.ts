import type { Command } from 'commander';
import type { ListedFile } from '../../workspace/types.js';
import { openIndex } from '../options.js';
import { paint, printJson } from '../output.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list the files search sees (the checked-out commit, uncommitted edits, untracked files and added sources) with their chunk counts')
    .argument('[glob]', "only paths matching this glob, e.g. 'src/**/*.ts'")
    .option('--committed-only', 'only the files of the checked-out commit, as indexed')
    .option('--json', 'print [{path, quotedPath?, blob, chunks, state}] as JSON (state: committed, modified, untracked or source; quotedPath: the exact name in git\'s quoted form, when path is not it)')
    .addHelpText('after', '\nEdited and untracked files are listed as search sees them: their new content is embedded first, as a search would.')
    .action(async (glob: string | undefined, opts: { json?: boolean; committedOnly?: boolean }, cmd: Command) => {
      const rows = await (await openIndex(cmd, {}, 'existing')).files({ glob, committedOnly: opts.committedOnly });
      if (opts.json) return printJson(rows);
      const p = paint(process.stdout);
      const width = Math.max(1, ...rows.map((r) => String(r.chunks).length));
      const mark = (r: ListedFile) => (r.state === 'committed' || r.state === 'folder' ? '' : r.reason ? `  (skipped: ${r.reason})` : `  (${r.state})`);
      // A name that is not plain UTF-8 is listed as git ls-files lists it: quoted, exact, one line.
      process.stdout.write(rows.map((r) => `${String(r.chunks).padStart(width)}  ${p.literal(r.quotedPath ?? r.path)}${mark(r)}`).join('\n') + (rows.length ? '\n' : ''));
    });
}
