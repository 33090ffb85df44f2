import type { Command } from 'commander';
import type { PublishSummary } from '../../workspace/types.js';
import { openIndex } from '../options.js';
import { paint, printJson } from '../output.js';
import { progressBar } from '../progress.js';

export function registerPublish(program: Command): void {
  program
    .command('publish')
    .description('append the index of the checked-out commit to the team\'s remote store (config "remote", e.g. s3://bucket/prefix; run it in CI)')
    .option('--compact', 'also fold the remote\'s small writes and drop its old versions (schedule it: see docs/ci.md)')
    .option('--json', 'print a JSON summary on stdout')
    .addHelpText('after', '\nOnly content the remote lacks is written, then the ref\'s manifest. Publishers take turns by a lease object,\nso two CI jobs may publish at once. AWS settings come from the standard environment (AWS_ENDPOINT_URL,\nAWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ALLOW_HTTP) or ~/.aws; they are never written anywhere.')
    .action(async (opts: { compact?: boolean; json?: boolean }, cmd: Command) => {
      const bar = progressBar();
      const index = await openIndex(cmd, { reporter: { progress: bar.update } });
      try {
        const summary = await index.publish({ compact: opts.compact });
        bar.done();
        if (opts.json) printJson(summary);
        else printPublish(summary);
      } finally {
        bar.done();
        await index.close();
      }
    });
}

function printPublish(s: PublishSummary): void {
  const p = paint(process.stderr);
  const what = s.blobsAdded ? `${s.blobsAdded} of ${s.blobs} blobs were new (${s.chunksAdded} chunks, ${s.marksAdded} marks)` : `all ${s.blobs} blobs were there already`;
  process.stderr.write(`${p.green('published')} ${s.branch ?? 'detached HEAD'} @ ${s.commit.slice(0, 8)} to ${s.remote}${s.created ? ' (new store)' : ''}: ${s.files} files; ${what}${s.compacted ? '; compacted' : ''} (${s.seconds.toFixed(2)} s)\n`);
}
