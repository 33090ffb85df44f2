import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { openIndex } from '../options.js';

const DEBOUNCE_MS = 400;

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('keep the index current while you edit: re-index uncommitted changes as files are saved')
    .addHelpText('after', '\nRuns until interrupted (Ctrl-C). Edits are embedded by content, so committing them later embeds nothing.')
    .action(async (_opts: unknown, cmd: Command) => {
      const index = await openIndex(cmd);
      const root = index.ctx.repo.root;
      let timer: NodeJS.Timeout | null = null;
      let running = Promise.resolve();
      const update = () => {
        running = running.then(async () => {
          try {
            const started = performance.now();
            const files = await index.refreshWorkingTree();
            process.stderr.write(`ocrag: index current (${files} files, ${Math.round(performance.now() - started)} ms)\n`);
          } catch (e) {
            process.stderr.write(`ocrag: ${(e as Error).message}\n`);
          }
        });
      };
      const watcher = fs.watch(root, { recursive: true }, (_event, file) => {
        const rel = String(file ?? '');
        if (rel.startsWith('.ocrag') || rel.split(path.sep).includes('.git') && !/^\.git[/\\](HEAD|refs)/.test(rel)) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(update, DEBOUNCE_MS);
      });
      update();
      process.stderr.write(`ocrag: watching ${root} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          watcher.close();
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await running;
      await index.close();
    });
}
