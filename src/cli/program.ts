import { Command, CommanderError, Option } from 'commander';
import { COMMANDS, commandOf } from './command-table.js';
import { OcragError } from '../util/errors.js';
import { EXIT, exitCodeSoFar, reportFailure } from './failure.js';
import { VERSION } from '../util/version.js';
import { positiveInt, splitList } from './options.js';

export async function buildProgram(argv: string[] = process.argv): Promise<Command> {
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
            4 index needs attention (model mismatch, damaged, foreign remote), 5 model unavailable,
            6 remote store or artifact URL unreachable, 7 cannot write: disk full or read-only.`,
    );
  program.exitOverride();
  program.configureOutput({ outputError: () => undefined });
  const args = argv.slice(2);
  const only = commandOf(args);
  const versionOnly = !only && (args.includes('-V') || args.includes('--version'));
  const names = only ? [only] : versionOnly ? [] : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]()))) register(program);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ outputError: () => undefined });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return exitCodeSoFar();
  } catch (e) {
    return reportError(e);
  }
}

function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
    const original = (e as CommanderError & { cause?: unknown }).cause;
    if (original instanceof OcragError) return reportError(original);
    process.stderr.write(`ocrag: ${e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see ocrag --help)\n`);
    return EXIT.usage;
  }
  return reportFailure(e);
}
