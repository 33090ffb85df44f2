import { cjkTerms, hanRuns } from './scripts.js';
import { CHINESE_CHANGE_FRAME_WORDS, CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stop-words.js';
import { ZH_GLOSSARY } from './zh-glossary.js';
import type { ZhLexicon } from './zh-lexicon.js';


/**
 * Weight of a word's later senses against its first: CC-CEDICT lists the common sense first, and a computing
 * sense is moved there by the lexicon, so later senses are more often wrong for code.
 */
const SENSE_WEIGHTS = [1, 0.5, 0.25];
/**
 * A character the segmenter leaves alone (成, 按, 组, 器) is a bound morpheme or a function word far more often
 * than the dictionary's first sense of it ("short name for Chengdu", "press", "form", "device"): its senses count
 * this much of a word's, unless the software glossary lists it (栈 stack, 锁 lock).
 */
const LONE_CHARACTER_SHARE = 0.5;

/** A word the reading skips: a function or question word, or one that frames a task (修复…的问题) rather than says what it is about. */
const unread = (word: string): boolean => CHINESE_STOP_WORDS.has(word) || CHINESE_CHANGE_FRAME_WORDS.has(word);

/**
 * The English words the Han runs of `text` mean, each with a weight (1 for a word's first sense, less for later
 * ones); function and question words are skipped. Pure given the lexicon.
 */
export function englishOfHan(text: string, lexicon: ZhLexicon): Map<string, number> {
  const english = new Map<string, number>();
  const add = (w: string, weight: number) => english.set(w, Math.max(english.get(w) ?? 0, weight));
  for (const run of hanRuns(text)) {
    let previous: readonly string[] = [];
    for (const word of lexicon.segment(run)) {
      if (unread(word)) {
        previous = [];
        continue;
      }
      const senses = lexicon.senses(word);
      if (AGENT_SUFFIXES.has(word) && previous.length) {
        // 提取器, 校验器, 调用者: the one who does what the word before says (extractor, validator, caller).
        previous.forEach((sense, i) => {
          const doer = doerOf(sense);
          if (doer) add(doer, SENSE_WEIGHTS[i] ?? 0);
        });
        previous = [];
        continue;
      }
      const share = word.length === 1 && !ZH_GLOSSARY.has(word) ? LONE_CHARACTER_SHARE : 1;
      senses.forEach((sense, i) => {
        for (const w of sense.split(/[^a-z0-9]+/)) if (w.length >= 2 && !ENGLISH_STOP_WORDS.has(w)) add(w, (SENSE_WEIGHTS[i] ?? 0) * share);
      });
      previous = senses;
    }
  }
  return english;
}

/**
 * The Han runs of `text` as the words they are made of, each with every term that stands for it: its character
 * bigrams (as the index holds Chinese) and the English words of its senses (as code names things), so a file
 * that says the word either way holds it. Function words are left out. Pure given the lexicon.
 */
export function hanConcepts(text: string, lexicon: ZhLexicon): string[][] {
  const concepts: string[][] = [];
  for (const run of hanRuns(text)) {
    for (const word of lexicon.segment(run)) {
      if (unread(word)) continue;
      concepts.push([...new Set([...cjkTerms(word), ...englishOfHan(word, lexicon).keys()])]);
    }
  }
  return concepts;
}

/** A one-word sense that can take -er / -or: not a noun of action or state (validation, management, handling). */
const VERB_LIKE = /^(?![a-z]*(?:tion|sion|ment|ness|ity|ing)$)[a-z]+$/;

/** The doer a sense names with 器/者 after it (`read` → reader), or null for a noun of action or state. */
function doerOf(sense: string): string | null {
  return VERB_LIKE.test(sense) ? agentNoun(sense) : null;
}

/** Suffixes that make a doer of the word before them (the English -er / -or); their own senses (device, person) are dropped. */
const AGENT_SUFFIXES: ReadonlySet<string> = new Set(['器', '者']);

/** The English doer of a verb: validate → validator, extract → extractor, parse → parser, run → runner. */
export function agentNoun(verb: string): string {
  if (/(?:er|or)$/.test(verb)) return verb;
  if (verb.endsWith('ate')) return `${verb.slice(0, -1)}or`;
  if (verb.endsWith('e')) return `${verb}r`;
  if (/(?:ct|it|ss)$/.test(verb)) return `${verb}or`;
  if (verb.length <= 4 && /[^aeiou][aeiou][bdglmnprt]$/.test(verb)) return `${verb}${verb.at(-1)}er`;
  return `${verb}er`;
}

/** `text` with the function and question words of its Han runs left out, the rest kept in place. */
export function withoutChineseStopWords(text: string, lexicon: ZhLexicon): string {
  return text.replace(/\p{Script=Han}+/gu, (run) => ` ${lexicon.segment(run).filter((w) => !unread(w)).join(' ')} `).replace(/\s+/g, ' ').trim();
}

/**
 * The text read in order as English: Latin words as written, each Han word as its first sense (`JSON 元素的层次` →
 * `JSON element, hierarchy`), a function word or punctuation as a comma, so that words which stand together in the
 * Chinese stand together in the reading. Pure given the lexicon.
 */
export function englishReading(text: string, lexicon: ZhLexicon): string {
  const out: string[] = [];
  for (const piece of text.split(/(\p{Script=Han}+)/u)) {
    if (!/\p{Script=Han}/u.test(piece)) {
      out.push(piece.replace(/[\u3000-\u303f\uff00-\uffef]/g, ','));
      continue;
    }
    let previous: string | undefined;
    for (const word of lexicon.segment(piece)) {
      // 读取器: the reader, as in englishOfHan.
      const doer = AGENT_SUFFIXES.has(word) && previous !== undefined ? doerOf(previous) : null;
      if (doer) {
        out[out.length - 1] = ` ${doer} `;
        previous = undefined;
        continue;
      }
      const first = lexicon.senses(word)[0];
      const usable = !unread(word) && first !== undefined && (word.length > 1 || ZH_GLOSSARY.has(word));
      out.push(usable ? ` ${first} ` : ',');
      previous = usable ? first : undefined;
    }
  }
  return out.join('');
}
