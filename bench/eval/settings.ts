// Ranking settings given on a benchmark's command line: --set key=value and --sweep key=a,b,c.
import { DEFAULT_RANKING, type RankingConfig } from '../../src/search/rank/config.js';

export function parseSetting(text: string): Partial<RankingConfig> {
  const [key, raw] = text.split('=');
  if (!(key in DEFAULT_RANKING)) throw new Error(`unknown ranking setting "${key}" (known: ${Object.keys(DEFAULT_RANKING).join(', ')})`);
  const current = DEFAULT_RANKING[key as keyof RankingConfig];
  const value = typeof current === 'boolean' ? raw === 'true' : typeof current === 'number' ? Number(raw) : raw;
  return { [key]: value } as Partial<RankingConfig>;
}

export function parseSweep(text: string): Partial<RankingConfig>[] {
  const [key, values] = text.split('=');
  return values.split(',').map((v) => parseSetting(`${key}=${v}`));
}

/**
 * Reads the benchmarks' command-line flags: each handler takes `value()` (the next argument) if its flag has one.
 * An unknown flag or a missing value is an error.
 */
export function readFlags(argv: string[], handlers: Record<string, (value: () => string) => unknown>): void {
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (!Object.hasOwn(handlers, flag)) throw new Error(`unknown argument: ${flag}`);
    handlers[flag]!(() => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i]!;
    });
  }
}

/** `a,b , c` → [a, b, c]: the repositories a benchmark run is limited to. */
export function repoList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}
