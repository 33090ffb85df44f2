import type { Command } from 'commander';
import { openIndex, positiveInt } from '../options.js';
import { formatBytes, printJson } from '../output.js';

export function registerGc(program: Command): void {
  program
    .command('gc')
    .description('delete chunks that no kept branch manifest references, then compact the store')
    .option('--keep <n>', 'keep this many most recently indexed manifests besides the checked-out ones (default: config keepManifests, 10)', positiveInt('--keep'))
    .option('--json', 'print what was removed as JSON')
    .action(async (opts: { keep?: number; json?: boolean }, cmd: Command) => {
      const index = await openIndex(cmd, {}, 'existing');
      const r = await index.gc(opts.keep);
      if (opts.json) return printJson(r);
      process.stderr.write(
        `removed ${r.manifestsRemoved.length} manifests, ${r.blobsRemoved} blobs, ${r.chunksRemoved} chunks; ${formatBytes(r.bytesBefore)} → ${formatBytes(r.bytesAfter)} (kept ${r.manifestsKept.length} manifests)\n`,
      );
    });
}
