import type { Command } from 'commander';
import { VALUED_GLOBAL_FLAGS } from './global-flags.js';

// The command table, apart from the program: which command an argv names is known before commander and the
// command modules load (an index run that starts itself again decides so in a lighter process: cli/arenas.ts).

export type Register = (program: Command) => void;

/**
 * Each command's module, loaded on demand: a run loads only the command it runs (commander needs all of
 * them only for top-level help and "did you mean"), which keeps LanceDB, the MCP SDK, tar… out of the
 * start-up of commands that don't use them.
 */
export const COMMANDS: Record<string, () => Promise<Register>> = {
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
export function commandOf(args: string[]): string | null {
  for (const [i, arg] of args.entries()) {
    const name = ALIASES[arg] ?? arg;
    if (name in COMMANDS) return name;
    if (!arg.startsWith('-') && !(VALUED_GLOBAL_FLAGS as readonly string[]).includes(args[i - 1])) return null;
  }
  return null;
}
