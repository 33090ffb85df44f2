import type { Command } from 'commander';
import { hooksInstalled, installHooks, uninstallHooks } from '../../git/hook-files.js';
import { runHook } from '../../hooks/background.js';
import { openRepo } from '../../git/repo.js';
import { workDir } from '../options.js';
import { printJson } from '../output.js';

export function registerHooks(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('keep the index current after every commit, checkout, merge and rebase (git hooks)')
    .addHelpText(
      'after',
      '\nHooks run ocrag detached in the background (log: .ocrag/log): git never waits for it and never fails\nbecause of it. Existing hooks, core.hooksPath and husky (.husky/) are respected: ocrag appends a marked\nblock and uninstall removes exactly that block. Set OCRAG_HOOKS_DISABLE=1 to silence them for a command.',
    );
  hooks
    .command('install')
    .description('add the ocrag block to post-commit, post-checkout, post-merge and post-rewrite')
    .option('--json', 'print what changed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const result = await installHooks(await openRepo(workDir(cmd)));
      if (opts.json) return printJson(result);
      for (const c of result.changes) process.stderr.write(`${c.action.padEnd(9)} ${c.file}\n`);
    });
  hooks
    .command('uninstall')
    .description('remove exactly what install added; other hook lines stay')
    .option('--json', 'print what changed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const result = await uninstallHooks(await openRepo(workDir(cmd)));
      if (opts.json) return printJson(result);
      for (const c of result.changes) process.stderr.write(`${c.action.padEnd(13)} ${c.file}\n`);
    });
  hooks
    .command('status')
    .description('which ocrag hooks are installed')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const installed = await hooksInstalled(await openRepo(workDir(cmd)));
      if (opts.json) return printJson({ installed });
      console.log(installed.length ? `installed: ${installed.join(', ')}` : 'not installed (ocrag hooks install)');
    });
  // Internal: the run the installed hooks start detached (blocks of earlier versions call dist/hooks/run.js, the same without the CLI). Hidden; always exits 0.
  program
    .command('hook', { hidden: true })
    .argument('<name>')
    .argument('[args...]')
    .action(async (name: string, args: string[], _opts: unknown, cmd: Command) => {
      await runHook(workDir(cmd), name, args);
    });
}
