// Which off-topic questions a repository might answer after all: for each English question and checkout, the file
// holding the most of its content words (git grep, whole words, any case). A file holding three or more and at
// least THRESHOLD of them is listed, to be read by a person: the question is dropped if the file answers it (the
// Apache license answered "patent infringement litigation damages", test data "lorem ipsum dolor sit amet").
//
//   node --import tsx bench/off-topic/check.ts DIR...      (each DIR a checkout)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGLISH_STOP_WORDS } from '../../src/text/stop-words.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Three of four content words in one file is how a real answer looked in the questions dropped. */
const THRESHOLD = 0.75;

const questions: string[] = JSON.parse(fs.readFileSync(path.join(HERE, 'questions.json'), 'utf8')).questions;
for (const dir of process.argv.slice(2)) {
  for (const q of questions) {
    const words = [...new Set(q.toLowerCase().match(/[a-z]{3,}/g) ?? [])].filter((w) => !ENGLISH_STOP_WORDS.has(w));
    if (words.length < 2 || words.length > 12) continue;
    const perFile = new Map<string, number>();
    for (const w of words) {
      let out = '';
      try {
        out = execFileSync('git', ['-C', dir, 'grep', '-l', '-i', '-w', '-I', w], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
      } catch {
        continue;
      }
      for (const f of out.split('\n').filter(Boolean)) perFile.set(f, (perFile.get(f) ?? 0) + 1);
    }
    const [file, n] = [...perFile].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    if (n >= 3 && n >= THRESHOLD * words.length) process.stdout.write(`${path.basename(dir)}: "${q}" ${n}/${words.length} in ${file}\n`);
  }
}
