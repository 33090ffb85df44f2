import type { Command } from 'commander';
import { openIndex } from '../options.js';
import { paint, printJson } from '../output.js';
import { progressBar } from '../progress.js';
import type { IndexSummary } from '../../workspace/types.js';

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('index the checked-out commit (outside git: this folder and its sources): chunk and embed only blobs never seen before')
    .option('--rebuild', 'drop the stored vectors and embed everything again (after changing the model)')
    .option('--dry-run', 'show what would be indexed and skipped; write nothing')
    .option('--json', 'print a JSON summary on stdout')
    .addHelpText('after', '\nRe-running on an unchanged commit does nothing. Vectors are keyed by blob, so renames and branch switches re-embed nothing.')
    .action(async (opts: { rebuild?: boolean; dryRun?: boolean; json?: boolean }, cmd: Command) => {
      if (opts.dryRun) {
        const plan = await (await openIndex(cmd, {}, 'create')).plan();
        if (opts.json) printJson(plan);
        else {
          const p = paint(process.stdout);
          console.log(`${p.bold('would index')} ${plan.files} files (${plan.newBlobs} new blobs to embed, ${plan.knownBlobs} already stored)`);
          for (const [reason, paths] of Object.entries(plan.skipped)) console.log(`${p.yellow('skip')} ${reason}: ${paths.length}  ${p.dim(paths.slice(0, 5).join(', ') + (paths.length > 5 ? ', …' : ''))}`);
        }
        return;
      }
      const bar = progressBar();
      const index = await openIndex(cmd, { reporter: { progress: bar.update } }, 'create');
      try {
        const summary = await index.index({ rebuild: opts.rebuild });
        bar.done();
        for (const warning of summary.warnings ?? []) process.stderr.write(`ocrag: warning: ${warning}\n`);
        if (opts.json) printJson(summary);
        else printSummary(summary);
      } finally {
        bar.done();
        await index.close();
      }
    });
}

function printSummary(s: IndexSummary): void {
  const p = paint(process.stderr);
  const where = s.folder ? `folder ${s.folder}` : `${s.branch ?? 'detached HEAD'} @ ${s.commit.slice(0, 8)}`;
  const skipped = Object.values(s.skipped).reduce((a, b) => a + (b ?? 0), 0);
  if (s.upToDate) {
    process.stderr.write(`${p.green('up to date')}: ${where}, ${s.files} files (${skipped} skipped), nothing to embed (${s.seconds.toFixed(2)} s)\n`);
    return;
  }
  const rate = s.chunksEmbedded && s.seconds ? `, ${Math.round(s.chunksEmbedded / s.seconds)} chunks/s` : '';
  const copied = s.remote ? `, ${s.remote.chunks} chunks of ${s.remote.blobs} blobs copied from ${s.remote.remote}` : '';
  process.stderr.write(
    `${p.green('indexed')} ${where}: ${s.files} files (${skipped} skipped), ${s.newBlobs} new blobs, ${s.chunksEmbedded} chunks embedded${rate}${copied}, ${s.chunksTotal} chunks stored (${s.seconds.toFixed(2)} s)\n`,
  );
}
