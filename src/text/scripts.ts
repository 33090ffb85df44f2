/**
 * Scripts written without spaces between words: Han (Chinese, and Japanese kanji), Japanese kana and Korean
 * Hangul. Latin identifiers inside such text stay their own words (`调用parseArgs解析` → 调用 | parseArgs | 解析).
 */
const CJK_CHAR = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\u30fc\u3005';
const CJK_RUN = new RegExp(`[${CJK_CHAR}]+`, 'gu');
const HAS_CJK = new RegExp(`[${CJK_CHAR}]`, 'u');
const HAN_RUN = /\p{Script=Han}+/gu;

export function hasCjk(text: string): boolean {
  return HAS_CJK.test(text);
}

/** Maximal runs of CJK characters, in order. */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUN) ?? [];
}

/** Maximal runs of Han characters: what the Chinese lexicon segments and translates. */
export function hanRuns(text: string): string[] {
  return text.match(HAN_RUN) ?? [];
}

/**
 * Searchable units of CJK text: overlapping character bigrams of each run (a lone character stands for itself).
 * Bigrams need no dictionary and find any phrase of two or more characters wherever it stands, in Chinese,
 * Japanese and Korean alike; the standard choice for CJK full-text search (Lucene's CJK analyser does the same).
 */
export function cjkTerms(text: string): string[] {
  const out: string[] = [];
  for (const run of cjkRuns(text)) {
    const chars = Array.from(run);
    if (chars.length === 1) out.push(run);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
  return out;
}
