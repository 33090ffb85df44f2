import { Command, CommanderError, Option } from 'commander';
import { restartsWithArenas, runWithArenas } from './arenas.js';
import { OcragError } from '../util/errors.js';
import { EXIT, reportFailure } from './failure.js';
import { VERSION } from '../util/version.js';
import { positiveInt, splitList } from './options.js';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded on demand: a run loads only the command it runs (commander needs all of
 * them only for top-level help and "did you mean"), which keeps LanceDB, the MCP SDK, tar… out of the
 * start-up of commands that don't use them.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  index: async () => (await import('./commands/index-command.js')).registerIndex,
  search: async () => (await import('./commands/search-command.js')).registerSearch,
  status: async () => (await import('./commands/status-command.js')).registerStatus,
  list: async () => (await import('./commands/list-command.js')).registerList,
  add: async () => (await import('./commands/source-command.js')).registerAdd,
  remove: async () => (await import('./commands/source-command.js')).registerRemove,
  doctor: async () => (await import('./commands/doctor-command.js')).registerDoctor,
  clear: async () => (await import('./commands/clear-command.js')).registerClear,
  model: async () => (await import('./commands/model-command.js')).registerModel,
  hooks: async () => (await import('./commands/hooks-command.js')).registerHooks,
  gc: async () => (await import('./commands/gc-command.js')).registerGc,
  watch: async () => (await import('./commands/watch-command.js')).registerWatch,
  export: async () => (await import('./commands/export-command.js')).registerExport,
  import: async () => (await import('./commands/import-command.js')).registerImport,
  publish: async () => (await import('./commands/publish-command.js')).registerPublish,
  mcp: async () => (await import('./commands/mcp-command.js')).registerMcp,
  setup: async () => (await import('./commands/setup-command.js')).registerSetup,
  ui: async () => (await import('./commands/ui-command.js')).registerUi,
  'plugin-host': async () => (await import('./commands/plugin-host-command.js')).registerPluginHost,
};
/** Internal commands registered by another command's module. */
const ALIASES: Record<string, string> = { hook: 'hooks' };

/** The command an argv names (the first word that is one), or null: then all are loaded. */
function commandOf(args: string[]): string | null {
  for (const arg of args) {
    const name = ALIASES[arg] ?? arg;
    if (name in COMMANDS) return name;
    if (!arg.startsWith('-') && !['-C', '--cwd', '--model', '--include', '--exclude', '--max-file-bytes'].some((o) => o === args[args.indexOf(arg) - 1])) return null;
  }
  return null;
}

export { EXIT } from './failure.js';

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
  if (restartsWithArenas(commandOf(argv.slice(2)))) {
    const code = await runWithArenas();
    if (code !== null) return code;
  }
  const program = await buildProgram(argv);
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
    if (original instanceof OcragError) return reportError(original);
    process.stderr.write(`ocrag: ${e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see ocrag --help)\n`);
    return EXIT.usage;
  }
  return reportFailure(e);
}
