import type { Command } from 'commander';
import { gitHooks, installGitHooks, uninstallGitHooks, type HookStatus } from '../../workspace/machine.js';
import { runHook } from '../../workspace/hook.js';
import { workDir } from '../options.js';
import { printJson } from '../output.js';

export function registerHooks(program: Command): void {
  const hooks = program
    .command('hooks')
    .description('keep the index current after every commit, checkout, merge and rebase (git hooks)')
    .addHelpText(
      'after',
      '\nHooks run ocrag detached in the background (log: .ocrag/log): git never waits for it and never fails\nbecause of it. Existing hooks, core.hooksPath and husky (.husky/) are respected: ocrag appends a marked\nblock and uninstall removes exactly that block. Set OCRAG_HOOKS_DISABLE=1 to silence them for a command.\nThe hooks never run a program from the work tree (a branch can supply any file there): they start an ocrag\nfound on PATH outside it, unless --project-bin allowed ./node_modules/.bin/ocrag for this clone.',
    );
  hooks
    .command('install')
    .description('add the ocrag block to post-commit, post-checkout, post-merge and post-rewrite')
    .option('--project-bin', "let the hooks run this repository's ./node_modules/.bin/ocrag (this clone only: recorded in .git/config)")
    .option('--no-project-bin', 'take that back: the hooks run only an ocrag outside the work tree')
    .option('--global-hooks', 'write into core.hooksPath even when it is set by your global or system git config (every repository runs it)')
    .option('--json', 'print what changed as JSON')
    .action(async (opts: { json?: boolean; projectBin?: boolean; globalHooks?: boolean }, cmd: Command) => {
      const result = await installGitHooks(workDir(cmd), { projectBin: opts.projectBin, globalHooks: opts.globalHooks });
      if (opts.json) return printJson(result);
      for (const c of result.changes) process.stderr.write(`${c.action.padEnd(9)} ${c.file}\n`);
      if (!result.program) process.stderr.write(`${NO_PROGRAM}\n`);
    });
  hooks
    .command('uninstall')
    .description('remove exactly what install added; other hook lines stay')
    .option('--json', 'print what changed as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const result = await uninstallGitHooks(workDir(cmd));
      if (opts.json) return printJson(result);
      for (const c of result.changes) process.stderr.write(`${c.action.padEnd(13)} ${c.file}\n`);
    });
  hooks
    .command('status')
    .description('which ocrag hooks are installed, whether they are current, and which ocrag they start')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const status = await gitHooks(workDir(cmd));
      if (opts.json) return printJson(status);
      console.log(describeStatus(status).join('\n'));
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

const NO_PROGRAM =
  'note: no ocrag outside this work tree was found, so the hooks do nothing yet: put ocrag on PATH (npm install -g), or run "ocrag hooks install --project-bin" to let them run ./node_modules/.bin/ocrag, which any branch you check out can replace';

/** The status as lines: where, which hooks, whether a block is older (and runs the tree's code), what runs. */
export function describeStatus(s: HookStatus): string[] {
  if (s.installed.length === 0) return [`not installed (ocrag hooks install) in ${s.place.dir}`];
  const lines = [`installed: ${s.installed.join(', ')} in ${s.place.dir}`];
  const risky = s.blocks.filter((b) => b.kind === 'runs tree code').map((b) => b.hook);
  const old = s.blocks.filter((b) => b.kind === 'outdated').map((b) => b.hook);
  if (risky.length) lines.push(`unsafe: ${risky.join(', ')} hold an older block that runs ./node_modules/.bin/ocrag from the work tree, which a branch can replace: run "ocrag hooks install"`);
  if (old.length) lines.push(`outdated: ${old.join(', ')} hold an older block: run "ocrag hooks install"`);
  lines.push(s.projectBin ? 'project bin: allowed in this clone (ocrag hooks install --no-project-bin takes it back)' : 'project bin: not run (ocrag hooks install --project-bin allows ./node_modules/.bin/ocrag)');
  lines.push(s.program ? `runs: ${s.program}` : NO_PROGRAM);
  return lines;
}
