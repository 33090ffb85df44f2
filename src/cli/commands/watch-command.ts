import type { Command } from 'commander';
import { openIndex } from '../options.js';

/** An editor's save is several writes (temp file, rename, attributes): one re-index after they settle. */
const DEBOUNCE_MS = 400;

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('keep the index current while you edit: re-index uncommitted changes as files are saved')
    .addHelpText('after', '\nRuns until interrupted (Ctrl-C). Edits are embedded by content, so committing them later embeds nothing.')
    .action(async (_opts: unknown, cmd: Command) => {
      // Outside git, a folder indexed before: its files are scanned as they change.
      const workspace = await openIndex(cmd, {}, 'existing');
      const root = workspace.root;
      let timer: NodeJS.Timeout | null = null;
      let running = Promise.resolve();
      const changed = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(update, DEBOUNCE_MS);
      };
      const watch = workspace.watch(changed);
      const update = () => {
        running = running.then(async () => {
          try {
            const started = performance.now();
            const files = await watch.refresh();
            const ms = Math.round(performance.now() - started);
            process.stderr.write(`ocrag: index current (${files} files, ${ms} ms)\n`);
          } catch (e) {
            process.stderr.write(`ocrag: ${(e as Error).message}\n`);
          }
        });
      };
      update();
      process.stderr.write(`ocrag: watching ${root} (Ctrl-C to stop)\n`);
      // The watches don't hold the process open (a server's must not): this does, until interrupted.
      const keepAlive = setInterval(() => undefined, 1 << 30);
      await new Promise<void>((resolve) => {
        const stop = () => {
          clearInterval(keepAlive);
          if (timer) clearTimeout(timer);
          watch.close();
          resolve();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await running;
      await workspace.close();
    });
}
