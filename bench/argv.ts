// A bench script's command line: `--name value` options and positional arguments (repositories), read the same
// way by every script that takes them.

/** The value after `name`, or `fallback` when the flag is absent. */
export function option(name: string, fallback: string, argv?: readonly string[]): string;
export function option(name: string, fallback?: string, argv?: readonly string[]): string | undefined;
export function option(name: string, fallback?: string, argv: readonly string[] = process.argv.slice(2)): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : fallback;
}

/** The first argument that is neither a flag nor a flag's value. */
export function positional(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  return positionals(argv)[0];
}

/** Every argument that is neither a flag nor a flag's value, in order. */
export function positionals(argv: readonly string[] = process.argv.slice(2)): string[] {
  return argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
}
