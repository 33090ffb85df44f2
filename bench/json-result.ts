// `--json FILE` for the benches `npm run bench` gathers (bench/ratios.ts): each writes its headline numbers there
// as one JSON object, beside what it prints. Without the flag nothing is written.
import fs from 'node:fs';
import { option } from './argv.js';

export function writeJsonResult(result: Record<string, unknown>, argv?: readonly string[]): void {
  const file = option('--json', undefined, argv);
  if (file) fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
}
