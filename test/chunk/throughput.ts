/**
 * Chunking throughput on real files (not a test):
 *   node --import tsx test/chunk/throughput.ts node_modules/typescript/lib /usr/lib/python3.11
 * Grammars are loaded before timing starts; reading files is not timed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chunkFile, detectLanguage } from '../../src/chunk/index.js';

const MAX_FILES_PER_ROOT = 2000;

function sourceFiles(root: string): string[] {
  if (statSync(root).isFile()) return [root];
  const found: string[] = [];
  const pending = [root];
  while (pending.length > 0 && found.length < MAX_FILES_PER_ROOT) {
    const dir = pending.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile() && detectLanguage(path) !== 'text') found.push(path);
    }
  }
  return found.slice(0, MAX_FILES_PER_ROOT);
}

const roots = process.argv.slice(2);
if (roots.length === 0) {
  console.error('usage: throughput.ts <file or dir>...');
  process.exit(2);
}
const files = roots.flatMap(sourceFiles).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const languages = [...new Set(files.map((file) => detectLanguage(file.path)))];
for (const language of languages) {
  const sample = files.find((file) => detectLanguage(file.path) === language)!;
  await chunkFile(sample.path, 'x');
}

const perLanguage = new Map<string, { files: number; chunks: number; lines: number; ms: number }>();
const started = performance.now();
for (const { path, text } of files) {
  const fileStarted = performance.now();
  const chunks = await chunkFile(path, text);
  const stats = perLanguage.get(detectLanguage(path)) ?? { files: 0, chunks: 0, lines: 0, ms: 0 };
  stats.files += 1;
  stats.chunks += chunks.length;
  stats.lines += text.split('\n').length;
  stats.ms += performance.now() - fileStarted;
  perLanguage.set(detectLanguage(path), stats);
}
const seconds = (performance.now() - started) / 1000;

const rate = (count: number, ms: number): string => (count / (ms / 1000)).toFixed(0);
const totals = [...perLanguage.values()].reduce(
  (sum, s) => ({ files: sum.files + s.files, chunks: sum.chunks + s.chunks, lines: sum.lines + s.lines }),
  { files: 0, chunks: 0, lines: 0 },
);
for (const [language, s] of [...perLanguage].sort((a, b) => b[1].files - a[1].files)) {
  console.log(`${language.padEnd(12)} ${String(s.files).padStart(5)} files ${String(s.chunks).padStart(7)} chunks `
    + `${rate(s.files, s.ms).padStart(6)} files/s ${rate(s.chunks, s.ms).padStart(7)} chunks/s ${rate(s.lines, s.ms).padStart(8)} lines/s`);
}
console.log(`total        ${totals.files} files, ${totals.chunks} chunks, ${totals.lines} lines in ${seconds.toFixed(2)} s: `
  + `${(totals.files / seconds).toFixed(0)} files/s, ${(totals.chunks / seconds).toFixed(0)} chunks/s`);
