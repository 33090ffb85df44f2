import type { Command } from 'commander';
import { openIndex, positiveInt } from '../options.js';
import { printJson } from '../output.js';
import { addedLine, removedLine } from '../../render/sources.js';

export function registerAdd(program: Command): void {
  program
    .command('add')
    .description('add folders or files outside the tree (design docs, another repository, PDFs, CSVs) as sources search sees beside the code')
    .argument('<path...>', 'folders (read recursively; .gitignore honoured inside a git work tree) or files')
    .option('--name <name>', 'what results call the source (default: the folder name): <name>:<path inside it>')
    .option('--json', 'print [{name, root, files}] as JSON')
    .addHelpText('after', '\nSources are content-addressed like the tree: a file in two sources, or in the tree, is embedded once. Every search\nsees them as they are now (a re-scan stats files and reads only changed ones). `ocrag list` shows their files,\n`ocrag remove <name>` takes one out, `ocrag search --no-sources` leaves them out.')
    .option('--max-size <MB>', 'index at most this many MB of its files (default: config maxSourceMB, 512); files past it are skipped, and listed so', positiveInt('--max-size', 1024 * 1024))
    .action(async (paths: string[], opts: { name?: string; json?: boolean; maxSize?: number }, cmd: Command) => {
      const workspace = await openIndex(cmd, {}, 'create');
      // Scanned and embedded now, so the first search after has nothing to do and the user sees what came in.
      const rows = await workspace.addSources(paths, { name: opts.name, maxBytes: opts.maxSize === undefined ? undefined : opts.maxSize * 1024 * 1024 });
      if (opts.json) return printJson(rows);
      for (const r of rows) process.stderr.write(`${addedLine(r)}\n`);
    });
}

export function registerRemove(program: Command): void {
  program
    .command('remove')
    .description('remove a source added with ocrag add, or leave one file or folder of the tree out of the index')
    .argument('<name-or-path>', 'a source\'s name or the path it was added with; else a file or folder of this repository or folder')
    .option('--json', 'print the removed source as JSON (or {excluded, glob, config} for a path of the tree)')
    .addHelpText(
      'after',
      '\nA path of the tree goes into the exclude globs of .ocrag/config.json: from the next search on it is neither\nindexed nor answered. Take its line out of the file to bring it back.\n\nExamples:\n  ocrag remove design-docs        the source named design-docs\n  ocrag remove notes/draft.md     this file of the tree, from now on',
    )
    .action(async (nameOrPath: string, opts: { json?: boolean }, cmd: Command) => {
      const workspace = await openIndex(cmd, {}, 'existing');
      const removed = workspace.remove(nameOrPath, process.cwd());
      if (opts.json && 'excluded' in removed) {
        const { excluded } = removed;
        return printJson({ excluded: excluded.path, glob: excluded.glob, config: excluded.config, added: excluded.added });
      }
      if (opts.json && 'source' in removed) return printJson({ ...removed.source, remaining: workspace.sources().map((s) => s.name) });
      process.stderr.write(`${removedLine(removed)}\n`);
    });
}
