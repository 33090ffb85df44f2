import { cjkRuns, cjkTerms, hanRuns, hasCjk } from '../text/scripts.js';
import { CHINESE_NAME_FRAME_WORDS, CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS as STOP_WORDS } from '../text/stop-words.js';
import type { ZhLexicon } from '../text/zh-lexicon.js';
import { englishOfHan, englishReading, hanConcepts, withoutChineseStopWords } from '../text/zh-query.js';
import { otherSpellings } from '../text/abbreviations.js';
import { codeTerms, splitIdentifier } from '../text/terms.js';
import { asksByInstructionOnly, asksForChange, asksHowItWorks, asksHowTo, describesChange, reportAsksHowTo } from './how-to.js';
import { spelledNameKeys } from './spelled-names.js';
import { isLongQuery, queryParts, type PathHint } from './query-parts.js';

/** What a query asks for, as the ranking needs it. Pure: derived from the query text only. */
export interface QueryInfo {
  text: string;
  /** What the query's vector is made from: the text, or for a name in a Chinese frame the name alone. */
  embedText: string;
  /** One bare name (`Router`, `createStore`, `Sinatra::Base`, `response`): look for its definition. */
  isName: boolean;
  /** Identifiers the query names: the name itself, or code-shaped words inside a sentence (`ZodType`, `from_fn`). */
  symbols: string[];
  /** Names a sentence spells as words (`JSON element`, or `JSON 元素` read as English → `jsonelement`), keyed as the symbol table keys names. */
  spelledNames: string[];
  /** A pasted report, trace or issue text (query-parts.ts): its parts are weighted, its prose counts less. */
  long: boolean;
  /** For a long query, each symbol's weight (0..1, the top frame's function heaviest); absent means 1. */
  symbolWeights: ReadonlyMap<string, number>;
  /** Files a long query names (stack frames, written paths), with their weights; empty for a short one. */
  pathHints: PathHint[];
  /** Content words (lower-case, no stop words), matched against path words. */
  keywords: string[];
  /** Identifier-aware words for the lexical index (CJK text as its character bigrams, Chinese also in English). */
  terms: string[];
  /**
   * What a short query is about, word by word: each entry the terms any of which stands for one word (an English
   * word and its other spellings; a Chinese word's bigrams and its English senses). Empty for a name or a long query.
   */
  concepts: string[][];
  /** Terms that count less than 1 in lexical scoring: English words read from Chinese, by how likely the sense. */
  termWeights: ReadonlyMap<string, number>;
  /** The query is about tests, examples or benchmarks: don't push those down. */
  wantsTests: boolean;
  wantsExamples: boolean;
  /** Asks for prose (readme, docs, changelog) or for configuration files. */
  wantsDocs: boolean;
  wantsConfig: boolean;
  /** Asks about translations (`i18n`, `locale`, 国际化, 翻译): the tables of UI strings are then answers like any file. */
  wantsTranslations: boolean;
  /** Asks how to use the project (`how do I…`, `enable…`, `why does…`), as its documentation answers. */
  asksHowTo: boolean;
  /** Of those, one asked only as an instruction (`set a base uri…`, a flag), as code questions are phrased too. */
  asksHowToByInstruction: boolean;
  /** Of those, one that asks for a change to the code (`add …`, `remove …`, `fix: …`): the task, not how to use it. */
  asksForChange: boolean;
  /** Describes a change to the code however it is asked (`fix: …`, `feat(x): …`, `add …`, `修复 …`): a commit subject, a task. */
  describesChange: boolean;
  /** Asks how the code works or where something is handled (`how does X dispatch Y`): a question about files as wholes. */
  asksHowItWorks: boolean;
  /** Names an old version or compatibility layer (`legacy`, `compat`, `deprecated`, `older versions`). */
  wantsLegacy: boolean;
  /** Versions the query names (`v3` → 3): old ones when the view holds newer (`v4` beside `v3`), else the current one. */
  versions: number[];
}

/**
 * A Chinese frame around one identifier (`parseArgs 在哪里定义`, `TypeAdapter 抽象类`) asks for that name, as the
 * bare name does in English; a sentence that mentions one name (`HTTP 基本认证中间件`) asks about something else.
 * Without the lexicon, a frame is told by its length alone.
 */
const NAME_FRAME_MAX_CHARS = 8;
/** A word the user wrote is better evidence than a dictionary's English for it (Chinese benchmark: 0.845 at 0.7, 0.846 at 1, 0.841 at 0.5). */
const TRANSLATED_TERM_WEIGHT = 0.7;

/** A single identifier, possibly qualified: `parseArgs`, `Sinatra::Base`, `http_client.get`, `render_template`. */
const NAME_QUERY = /^[A-Za-z_$][\w$]*(?:(?:::|\.|#|->|\\)[A-Za-z_$][\w$]*)*$/;
/** Code-shaped words in a sentence: camelCase, PascalCase with an inner capital, snake_case, qualified names. */
const EMBEDDED_SYMBOL = /\b(?:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z]{2,}[a-z][A-Za-z0-9]*)\b/g;
/** Member references in a sentence: `app.set`, `z.record`, `.refine()` (prose never puts a letter right after a dot). */
const MEMBER_REFERENCE = /(?:\b[A-Za-z_$][\w$]*)?\.[A-Za-z_$][\w$]+(?:\(\))?/g;

/** `lexicon` reads Chinese; without it, CJK text still matches by its bigrams. `longQueries: false` reads every query as a short one. */
export function analyzeQuery(query: string, lexicon?: ZhLexicon, { longQueries = true }: { longQueries?: boolean } = {}): QueryInfo {
  const text = query.trim();
  const cjk = hasCjk(text);
  const latin = cjk ? latinPart(text) : text;
  const parts = longQueries && isLongQuery(text) ? queryParts(text) : null;
  const framedName = cjk && NAME_QUERY.test(latin) && isNameFrame(text, lexicon);
  const isName = !parts && (NAME_QUERY.test(text) || framedName);
  const symbols = parts ? parts.symbols.map(([name]) => name) : isName ? namesOf(latin) : embeddedNames(text);
  const words = [...latin.matchAll(/[A-Za-z][A-Za-z0-9]*/g)].map((m) => m[0]);
  const keywords = new Set<string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (!STOP_WORDS.has(lower) && lower.length > 1) keywords.add(lower);
    for (const part of splitIdentifier(word)) if (part.length > 2 && !STOP_WORDS.has(part)) keywords.add(part);
  }
  const terms = parts ? parts.terms.map(([t]) => t) : codeTerms(latin).filter((t) => !STOP_WORDS.has(t));
  const termWeights = new Map<string, number>(parts?.terms);
  const concepts = parts || isName ? [] : latinConcepts(terms);
  if (!parts) addSpellings(terms, termWeights);
  let embedText = parts ? parts.embedText : framedName ? latin : text;
  let readEnglish: string[] = [];
  if (cjk && !framedName) {
    // A long query's parts hold its CJK bigrams already, at the weight of its prose.
    if (!parts) terms.push(...cjkTerms(text));
    if (!parts) concepts.push(...(lexicon ? hanConcepts(text, lexicon) : cjkTerms(text).map((t) => [t])));
    if (lexicon) {
      const english = englishOfHan(text, lexicon);
      // The vector reads the Chinese and the English of its first senses: on the Chinese benchmark queries this
      // beats the Chinese alone (NDCG@10 0.844 against 0.840), and it helps a model that reads no Chinese.
      readEnglish = [...english].filter(([, w]) => w === 1).map(([w]) => w);
      // Its function words are left out of the vector: their pieces never occur in code, so the embedder's
      // frequency weighting would count 的 or 如何 as much as 中间件 (0.878 against 0.876 with them).
      if (readEnglish.length) embedText = `${withoutChineseStopWords(embedText, lexicon)} ${readEnglish.join(' ')}`;
      for (const [word, weight] of english) {
        if (weight === 1) keywords.add(word);
        if (terms.includes(word)) continue;
        terms.push(word);
        termWeights.set(word, weight * TRANSLATED_TERM_WEIGHT);
      }
    }
  }
  // Chinese asks for tests or docs in Chinese (测试, 文档): the English read from it counts like English words. A
  // long report mentions tests and docs on the way; its first line says what it asks for.
  const asked = parts ? text.split('\n')[0]! : text;
  const lower = `${asked} ${readEnglish.join(' ')}`.toLowerCase();
  const byInstruction = !parts && asksByInstructionOnly(text);
  return {
    text,
    embedText,
    isName,
    symbols,
    spelledNames: isName || parts ? [] : spelledNameKeys(cjk && lexicon ? englishReading(text, lexicon) : latin),
    long: parts !== null,
    symbolWeights: new Map(parts?.symbols),
    pathHints: parts?.paths ?? [],
    keywords: parts ? parts.keywords : [...keywords],
    terms,
    concepts,
    termWeights,
    wantsTests: /\b(tests?|testing|spec|specs|fixtures?|mocks?|assert\w*)\b/.test(lower),
    wantsExamples: /\b(examples?|samples?|demos?|tutorials?|benchmarks?)\b/.test(lower),
    wantsDocs: /\b(readme|changelog|docs|guide|markdown files?|release notes)\b|更新日志|变更日志/.test(lower),
    wantsTranslations: /\b(i18n|l10n|translat\w*|locales?|locali[sz]\w*|internationali[sz]\w*|language packs?|multilingual)\b|国际化|翻译|多语言|语言包|中英文|繁体/.test(lower),
    wantsLegacy: /\b(legacy|compat\w*|deprecated|old(er)? versions?)\b/.test(lower),
    versions: [...lower.matchAll(/\bv(\d+)\b/g)].map((m) => Number(m[1])),
    asksHowTo: parts ? reportAsksHowTo(asked) : asksHowTo(text),
    asksHowToByInstruction: byInstruction,
    asksForChange: byInstruction && asksForChange(text),
    describesChange: describesChange(asked),
    asksHowItWorks: asksHowItWorks(asked),
    wantsConfig: /\b(config(uration)? files?|yaml|toml|json files?|dockerfile|makefile|ci|workflow|package\.json|cargo\.toml|dependencies list)\b/.test(lower),
  };
}

/**
 * Another spelling of a query word is weaker evidence than the word itself (public benchmark NDCG@10 0.8852 at 0.4,
 * 0.8863 at 0.6, 0.8854 at 0.8; its queries write `authentication`, `initialization`, code `auth`, `init`).
 */
const SPELLING_WEIGHT = 0.6;

/** Each distinct word once, with its other spellings (`authentication`, `auth`) as one concept. */
function latinConcepts(terms: string[]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const term of terms) {
    if (seen.has(term)) continue;
    const concept = [term, ...otherSpellings(term)];
    concept.forEach((t) => seen.add(t));
    out.push(concept);
  }
  return out;
}

/** Code's short forms of the query's words (`authentication` → auth) and the words its short forms stand for, at a lesser weight. */
function addSpellings(terms: string[], weights: Map<string, number>): void {
  for (const term of [...terms]) {
    for (const other of otherSpellings(term)) {
      if (terms.includes(other)) continue;
      terms.push(other);
      weights.set(other, SPELLING_WEIGHT * (weights.get(term) ?? 1));
    }
  }
}

/** The CJK words around the one identifier only frame it: with the lexicon by its words, else by their length. */
function isNameFrame(text: string, lexicon?: ZhLexicon): boolean {
  const runs = cjkRuns(text);
  if (!lexicon) return runs.join('').length <= NAME_FRAME_MAX_CHARS;
  return runs.every((run) => hanRuns(run).join('') === run && lexicon.segment(run).every((w) => CHINESE_STOP_WORDS.has(w) || CHINESE_NAME_FRAME_WORDS.has(w)));
}

/** The query without its CJK runs and the punctuation around them: what identifiers and English words it holds. */
function latinPart(text: string): string {
  return cjkRuns(text)
    .reduce((rest, run) => rest.replace(run, ' '), text)
    .replace(/[\u3000-\u303f\uff00-\uffef]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function embeddedNames(text: string): string[] {
  const names = [...text.matchAll(EMBEDDED_SYMBOL)].map((m) => m[0]);
  for (const m of text.matchAll(MEMBER_REFERENCE)) {
    const ref = m[0].replace(/\(\)$/, '');
    if (/^\w\.\w$/.test(ref) || /^(?:e\.g|i\.e|etc)\b/i.test(ref) || namesFile(ref, text.slice(m.index + m[0].length))) continue;
    names.push(...namesOf(ref.replace(/^\./, '')));
  }
  return [...new Set(names.filter((n) => n.length > 1))];
}

/** A file type after a name (`Node.js`, `package.json`, `setup.py`): a file or a product, not a member of an object. */
const FILE_EXTENSION = /^\w+\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|php|json|toml|ya?ml|md|lock|txt)$/i;

/** A reference that names a file: `Node.js`, or a dotfile that prose calls a file (`a .env file`, `the .npmrc files`). */
function namesFile(ref: string, after: string): boolean {
  return FILE_EXTENSION.test(ref) || (ref.startsWith('.') && /^\s+files?\b/i.test(after));
}

/** `Sinatra::Base` names both itself and `Base`; the last segment is what a definition line shows. */
function namesOf(name: string): string[] {
  const parts = name.split(/::|\.|#|->|\\/).filter(Boolean);
  const last = parts[parts.length - 1]!;
  return last === name ? [name] : [last, name];
}
