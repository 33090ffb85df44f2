import type { Command } from 'commander';
import type { ImportSummary } from '../../workspace/types.js';
import { openIndex } from '../options.js';
import { paint, printJson } from '../output.js';

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('add the index in an artifact from "ocrag export" (e.g. built in CI): its commit then embeds nothing')
    .argument('<file>', 'artifact (.tar) written by ocrag export: a file, an https:// URL or an s3:// object')
    .option('--json', 'print a JSON summary on stdout')
    .addHelpText('after', '\nThe artifact is verified completely (model, chunker, checksums, paths) before anything is written, wherever it\ncame from (an s3:// object is read with the AWS settings of the environment; plain http only from 127.0.0.1);\nchunks already stored are left as they are, so importing twice changes nothing.')
    .action(async (file: string, opts: { json?: boolean }, cmd: Command) => {
      const workspace = await openIndex(cmd);
      try {
        const summary = await workspace.import(file);
        if (opts.json) printJson(summary);
        else printImport(summary);
      } finally {
        await workspace.close();
      }
    });
}

function printImport(s: ImportSummary): void {
  const p = paint(process.stderr);
  const where = `${s.header.commit.slice(0, 8)} (built on ${s.header.branch ?? 'detached HEAD'}, ${s.header.createdAt})`;
  const manifest = s.manifestWritten ? `registered as ${s.manifestKey}` : `already registered as ${s.manifestKey}`;
  process.stderr.write(`${p.green('imported')} ${where}: ${s.chunks} chunks (${s.chunksAdded} new), ${s.marksAdded} marks; ${manifest} (${s.seconds.toFixed(2)} s)\n`);
  if (s.repository === 'commit not present') process.stderr.write(`${p.yellow('note')}: commit ${s.header.commit.slice(0, 8)} is not in this repository yet (git fetch); its blobs are reused by every index run\n`);
}
