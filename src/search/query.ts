import { codeTerms, splitIdentifier } from './terms.js';

/** What a query asks for, as the ranking needs it. Pure: derived from the query text only. */
export interface QueryInfo {
  text: string;
  /** One bare name (`Router`, `createStore`, `Sinatra::Base`, `response`): look for its definition. */
  isName: boolean;
  /** Identifiers the query names: the name itself, or code-shaped words inside a sentence (`ZodType`, `from_fn`). */
  symbols: string[];
  /** Content words (lower-case, no stop words), matched against path words. */
  keywords: string[];
  /** Identifier-aware words for the lexical index. */
  terms: string[];
  /** The query is about tests, examples or benchmarks: don't push those down. */
  wantsTests: boolean;
  wantsExamples: boolean;
  /** Asks for prose (readme, docs, changelog) or for configuration files. */
  wantsDocs: boolean;
  wantsConfig: boolean;
  /** Names an old version or compatibility layer (`v3`, `legacy`, `compat`, `deprecated`). */
  wantsLegacy: boolean;
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from has have how i if in into is it its of on or our the their them then there these this ' +
    'those to was we what when where which who whom why will with within without you your all any each every via per'
  ).split(' '),
);

/** A single identifier, possibly qualified: `parseArgs`, `Sinatra::Base`, `http_client.get`, `render_template`. */
const NAME_QUERY = /^[A-Za-z_$][\w$]*(?:(?:::|\.|#|->|\\)[A-Za-z_$][\w$]*)*$/;
/** Code-shaped words in a sentence: camelCase, PascalCase with an inner capital, snake_case, qualified names. */
const EMBEDDED_SYMBOL = /\b(?:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z]{2,}[a-z][A-Za-z0-9]*)\b/g;
/** Member references in a sentence: `app.set`, `z.record`, `.refine()` (prose never puts a letter right after a dot). */
const MEMBER_REFERENCE = /(?:\b[A-Za-z_$][\w$]*)?\.[A-Za-z_$][\w$]+(?:\(\))?/g;

export function analyzeQuery(query: string): QueryInfo {
  const text = query.trim();
  const isName = NAME_QUERY.test(text);
  const symbols = isName ? namesOf(text) : embeddedNames(text);
  const words = [...text.matchAll(/[A-Za-z][A-Za-z0-9]*/g)].map((m) => m[0]);
  const keywords = new Set<string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (!STOP_WORDS.has(lower) && lower.length > 1) keywords.add(lower);
    for (const part of splitIdentifier(word)) if (part.length > 2 && !STOP_WORDS.has(part)) keywords.add(part);
  }
  const lower = text.toLowerCase();
  return {
    text,
    isName,
    symbols,
    keywords: [...keywords],
    terms: codeTerms(text).filter((t) => !STOP_WORDS.has(t)),
    wantsTests: /\b(tests?|testing|spec|specs|fixtures?|mocks?|assert\w*)\b/.test(lower),
    wantsExamples: /\b(examples?|samples?|demos?|tutorials?|benchmarks?)\b/.test(lower),
    wantsDocs: /\b(readme|changelog|docs|guide|markdown files?|release notes)\b/.test(lower),
    wantsLegacy: /\b(v\d+|legacy|compat\w*|deprecated|old(er)? versions?)\b/.test(lower),
    wantsConfig: /\b(config(uration)? files?|yaml|toml|json files?|dockerfile|makefile|ci|workflow|package\.json|cargo\.toml|dependencies list)\b/.test(lower),
  };
}

function embeddedNames(text: string): string[] {
  const names = [...text.matchAll(EMBEDDED_SYMBOL)].map((m) => m[0]);
  for (const m of text.matchAll(MEMBER_REFERENCE)) {
    const ref = m[0].replace(/\(\)$/, '');
    if (/^\w\.\w$/.test(ref) || /^(?:e\.g|i\.e|etc)\b/i.test(ref)) continue;
    names.push(...namesOf(ref.replace(/^\./, '')));
  }
  return [...new Set(names.filter((n) => n.length > 1))];
}

/** `Sinatra::Base` names both itself and `Base`; the last segment is what a definition line shows. */
function namesOf(name: string): string[] {
  const parts = name.split(/::|\.|#|->|\\/).filter(Boolean);
  const last = parts[parts.length - 1]!;
  return last === name ? [name] : [last, name];
}
