import type { Command } from 'commander';
import type { SearchQuery } from '../../workspace/index.js';
import { SearchNotices } from '../../workspace/live.js';
import { listenWarm } from '../../workspace/warm.js';
import { configFlags, openIndex } from '../options.js';
import { notice } from '../output.js';

/** An editor's save is several writes (temp file, rename, attributes): one re-index after they settle. */
const DEBOUNCE_MS = 400;

export function registerWatch(program: Command): void {
  program
    .command('watch')
    .description('keep the index current while you edit: re-index uncommitted changes as files are saved')
    .addHelpText('after', '\nRuns until interrupted (Ctrl-C). Edits are embedded by content, so committing them later embeds nothing.')
    .action(async (_opts: unknown, cmd: Command) => {
      // Outside git, a folder indexed before: its files are scanned as they change.
      // Notices go to stderr as ever, and also to the one-shot search asking at the time (below).
      const notices = new SearchNotices(notice);
      const workspace = await openIndex(cmd, { reporter: { notice: notices.tell } }, 'existing');
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
      // A one-shot `ocrag search` here asks this process, its search waiting its turn behind an update.
      const searchForCli = (query: string, options: SearchQuery) => {
        const searched = running.then(() => notices.during(() => workspace.search(query, options)));
        running = searched.then(() => undefined, () => undefined);
        return searched.then(({ value, notices: told }) => ({ results: value, notices: told }));
      };
      const warm = await listenWarm({ root, indexDir: workspace.indexFolder, flags: configFlags(cmd), model: workspace.config.model, answer: searchForCli, log: notice });
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
      await warm?.close();
      await running;
      await workspace.close();
    });
}
