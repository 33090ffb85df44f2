import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import { ZH_GLOSSARY } from '../text/zh-glossary.js';
import { dictionarySenses, SENSES_READ, type SenseChoice } from '../text/zh-query.js';

/** How many of the searched chunks hold a word (its stem), 0 for one none holds. */
export type WordCount = (word: string) => number;

/**
 * A Chinese word's senses in the order this repository uses them: the dictionary lists the everyday sense first
 * (登录 register, 顶部 roof, 导入 introduce into) and the code sense late or as a phrase (`log in`, `import`); the
 * repository being searched says which it writes. Each sense counts the chunks that hold it (a phrase only those
 * that write it as one word, `log in` → login); the glossary's senses stay first (they are the code senses
 * already), and the rest are read most held first (`held`) or held before not (`present`). A lone character keeps
 * the dictionary's order (mostly a bound morpheme or a function word, whose later senses are other words: 的 "of",
 * then "target"), and so does a word none of whose senses the repository writes.
 */
export function sensesByUse(count: WordCount, order: 'held' | 'present' = 'held'): SenseChoice {
  const key = order === 'held' ? (held: number) => held : (held: number) => (held > 0 ? 1 : 0);
  return (senses, word) => {
    if (Array.from(word).length < 2) return dictionarySenses(senses, word);
    const fixed = ZH_GLOSSARY.get(word)?.length ?? 0;
    const scored = senses.slice(fixed).map((sense, i) => ({ i, ...heldSense(sense, count) }));
    if (!scored.some((s) => s.held > 0)) return dictionarySenses(senses, word);
    const ordered = scored.sort((a, b) => key(b.held) - key(a.held) || a.i - b.i).map((s) => s.text);
    return [...new Set([...senses.slice(0, fixed), ...ordered])].slice(0, SENSES_READ);
  };
}

/** A sense as the repository writes it and how many chunks hold it: a phrase only written as one word. */
function heldSense(sense: string, count: WordCount): { text: string; held: number } {
  const words = sense.split(/[^a-z0-9]+/).filter((w) => w.length >= 2 && !ENGLISH_STOP_WORDS.has(w));
  if (!words.length) return { text: sense, held: 0 };
  if (!/[^a-z0-9]/.test(sense)) return { text: sense, held: count(sense) };
  const joined = sense.replace(/[^a-z0-9]/g, '');
  const held = count(joined);
  return held > 0 ? { text: joined, held } : { text: sense, held: 0 };
}
