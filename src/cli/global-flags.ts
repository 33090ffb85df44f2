/**
 * The global flags that take a value (program.ts defines them for commander): a reader of the command line that
 * runs before commander (command-table.ts's commandOf, the quick entry's search-line.ts) must know them to tell a
 * flag's value from a command or a word. Apart from both, as the quick entry must not load the command table.
 */
export const VALUED_GLOBAL_FLAGS = ['-C', '--cwd', '--model', '--include', '--exclude', '--max-file-bytes'] as const;

export type ValuedGlobalFlag = (typeof VALUED_GLOBAL_FLAGS)[number];
