import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { checkArtifact, type VerifiedArtifact } from '../../workspace/machine.js';
import { STDOUT_NAME, type ExportSummary } from '../../workspace/types.js';
import { OcragError } from '../../util/errors.js';
import { openIndex } from '../options.js';
import { formatBytes, paint, printJson } from '../output.js';
import { progressBar } from '../progress.js';

interface ExportFlags {
  out?: string;
  rev?: string;
  check?: string;
  json?: boolean;
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write the index of a commit to one artifact file that teammates import (build it once, e.g. in CI)')
    .option('--out <file>', 'artifact to write (default: ocrag-index-<commit>.tar here); - streams it to stdout')
    .option('--rev <rev>', 'commit to export; it must have been indexed (HEAD is indexed first if needed)')
    .option('--check <file>', 'verify an artifact and print its header instead of exporting')
    .option('--json', 'print the summary (or with --check, the header) as JSON')
    .addHelpText('after', '\nThe artifact holds chunks and vectors keyed by blob, the manifest of the commit and checksums.\nTeammates run "ocrag import <file>" and embed nothing. See docs/ci.md for a CI recipe.')
    .action(async (opts: ExportFlags, cmd: Command) => {
      if (opts.check !== undefined) {
        if (opts.out !== undefined || opts.rev !== undefined) throw new OcragError('--check reads an artifact; it takes no --out or --rev');
        return printCheck(opts.check, await checkArtifact(opts.check), opts.json);
      }
      if (opts.out === STDOUT_NAME) {
        if (opts.json) throw new OcragError('--out - streams the artifact to stdout, so --json has nowhere to go: drop --json (the summary goes to stderr)');
        if (process.stdout.isTTY) throw new OcragError('--out - streams the artifact to stdout, which is a terminal: redirect it (--out - > index.tar, or | ssh …)');
      }
      const bar = progressBar();
      const workspace = await openIndex(cmd, { reporter: { progress: bar.update } });
      try {
        const summary = await workspace.export({ rev: opts.rev, out: opts.out, stdout: process.stdout });
        bar.done();
        const sources = workspace.sources();
        // An artifact is one commit of the tree; sources are files on this machine, which a teammate may not have.
        if (sources.length) process.stderr.write(`ocrag: the artifact holds the tree only, not the ${sources.length} added source(s) (${sources.map((s) => s.name).join(', ')}); a teammate adds them with ocrag add\n`);
        if (opts.json) printJson(summary);
        else printExport(summary);
      } finally {
        bar.done();
        await workspace.close();
      }
    });
}

function printExport(s: ExportSummary): void {
  const p = paint(process.stderr);
  process.stderr.write(
    `${p.green('exported')} ${s.branch ?? 'detached HEAD'} @ ${s.commit.slice(0, 8)}: ${s.counts.files} files, ${s.counts.chunks} chunks, ${s.counts.marks} marks → ${s.file === STDOUT_NAME ? 'stdout' : path.relative(process.cwd(), s.file) || s.file} (${formatBytes(s.bytes)}, ${s.seconds.toFixed(2)} s)\n`,
  );
}

function printCheck(file: string, a: VerifiedArtifact, json?: boolean): void {
  const bytes = fs.statSync(file).size;
  const { header: h, trailer: t } = a;
  if (json) return printJson({ file: path.resolve(file), bytes, verified: true, header: h, counts: t.counts, sha256: t.sha256, entries: t.entries });
  const p = paint(process.stdout);
  console.log(
    [
      `${p.bold('artifact')}  ${file} (${formatBytes(bytes)}) ${p.green('verified')}: every checksum matches`,
      `${p.bold('format')}    ${h.format} v${h.formatVersion}, written by ocrag ${h.ocragVersion} at ${h.createdAt}`,
      `${p.bold('commit')}    ${h.commit} (tree ${h.tree.slice(0, 12)}) on ${h.branch ?? 'detached HEAD'}`,
      `${p.bold('model')}     ${h.modelId} (${h.dim}-d), chunker ${h.chunkerVersion}`,
      `${p.bold('contents')}  ${t.counts.files} files, ${t.counts.blobs} blobs with ${t.counts.chunks} chunks, ${t.counts.marks} marks; ${t.counts.entries} entries, ${formatBytes(t.counts.bytes)} unpacked`,
      `${p.bold('sha256')}    ${t.sha256}`,
    ].join('\n'),
  );
}
