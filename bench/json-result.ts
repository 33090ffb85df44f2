// `--json FILE` for the benches `npm run bench` gathers (bench/ratios.ts): each writes its headline numbers there
// as one JSON object, beside what it prints. Without the flag nothing is written.
import fs from 'node:fs';

export function writeJsonResult(result: Record<string, unknown>, argv: readonly string[] = process.argv): void {
  const at = argv.indexOf('--json');
  if (at < 0 || !argv[at + 1]) return;
  fs.writeFileSync(argv[at + 1], JSON.stringify(result, null, 2) + '\n');
}
