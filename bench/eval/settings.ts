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
