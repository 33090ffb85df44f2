#!/usr/bin/env node
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../git/repo.js';
import { GitError } from '../git/run.js';
import { registerIndex } from './commands/index-command.js';
import { registerSearch } from './commands/search-command.js';
import { registerStatus } from './commands/status-command.js';
import { registerList } from './commands/list-command.js';
import { registerDoctor } from './commands/doctor-command.js';
import { registerClear } from './commands/clear-command.js';
import { registerModel } from './commands/model-command.js';
import { registerHooks } from './commands/hooks-command.js';
import { registerGc } from './commands/gc-command.js';
import { registerWatch } from './commands/watch-command.js';
import { VERSION } from './version.js';
import { positiveInt, splitList } from './options.js';

/** Exit codes, documented in the README and in `ocrag --help`. */
export const EXIT = { ok: 0, error: 1, usage: 2, noRepo: 3, index: 4, model: 5 } as const;

export function buildProgram(): Command {
  const program = new Command('ocrag')
    .description('Semantic code search over the git repository you are in: local, offline, branch-aware.')
    .version(VERSION, '-V, --version')
    .option('-C, --cwd <dir>', 'run as if started in <dir>')
    .option('--model <model>', 'embedding model: "default", a Transformers.js model folder, or a model id in the cache')
    .addOption(new Option('--include <globs>', 'only index paths matching these comma-separated globs').argParser(splitList))
    .addOption(new Option('--exclude <globs>', 'never index paths matching these comma-separated globs').argParser(splitList))
    .addOption(new Option('--max-file-bytes <n>', 'skip files larger than this').argParser(positiveInt('--max-file-bytes')))
    .addHelpText(
      'after',
      `
Examples:
  $ ocrag index                              index the checked-out commit (only new blobs are embedded)
  $ ocrag search "parse command line arguments"
  $ ocrag search "where are retries configured" -k 5 --path 'src/**' --json
  $ git ocrag search "Router.handle"         the same through git
  $ ocrag status                             what is indexed, what was skipped and why

Configuration: defaults < .ocrag/config.json < OCRAG_* environment < flags.
Exit codes: 0 ok, 1 unexpected error, 2 bad usage, 3 not a git repository / no commits,
            4 index needs attention (model mismatch, damaged), 5 model unavailable.`,
    );
  program.exitOverride();
  program.configureOutput({ outputError: () => undefined });
  for (const register of [registerIndex, registerSearch, registerStatus, registerList, registerDoctor, registerClear, registerModel, registerHooks, registerGc, registerWatch]) register(program);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ outputError: () => undefined });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (e) {
    return reportError(e);
  }
}

function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
    const original = (e as CommanderError & { cause?: unknown }).cause;
    if (original instanceof UsageError) return reportError(original);
    process.stderr.write(`ocrag: ${e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see ocrag --help)\n`);
    return EXIT.usage;
  }
  if (e instanceof UsageError) {
    process.stderr.write(`ocrag: ${e.message}\n`);
    return e.exitCode;
  }
  if (e instanceof GitError) {
    process.stderr.write(`ocrag: git: ${e.message}\n`);
    return EXIT.error;
  }
  const err = e as Error;
  process.stderr.write(`ocrag: ${err?.message ?? String(e)}\n`);
  if (process.env.OCRAG_DEBUG) process.stderr.write(`${err?.stack}\n`);
  return EXIT.error;
}

// `git ocrag …` runs the git-ocrag bin, which is this same file.
main(process.argv).then((code) => {
  process.exitCode = code;
});
