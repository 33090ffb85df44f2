import { detectLanguage } from '../chunk/languages.js';

/** What agents call a language → the names the chunker records (see src/chunk/languages.ts). */
const ALIASES: Record<string, string[]> = {
  typescript: ['typescript', 'tsx'],
  ts: ['typescript', 'tsx'],
  tsx: ['tsx'],
  javascript: ['javascript'],
  js: ['javascript'],
  jsx: ['javascript'],
  python: ['python'],
  py: ['python'],
  rust: ['rust'],
  rs: ['rust'],
  go: ['go'],
  golang: ['go'],
  'c#': ['c_sharp'],
  objc: ['objective_c'],
  'objective-c++': ['objective_cpp'],
  objcpp: ['objective_cpp'],
  csharp: ['c_sharp'],
  cs: ['c_sharp'],
  'c++': ['cpp'],
  cxx: ['cpp'],
  ruby: ['ruby'],
  rb: ['ruby'],
  kotlin: ['kotlin'],
  kt: ['kotlin'],
  shell: ['bash'],
  sh: ['bash'],
  md: ['markdown'],
  yml: ['yaml'],
};

/** The recorded language names a filter accepts; unknown names are taken as recorded names. */
export function languagesFor(filter: string): Set<string> {
  const key = filter.trim().toLowerCase();
  if (ALIASES[key]) return new Set(ALIASES[key]);
  // A file extension names the language its files are recorded in (jsonc → json, m → objective_c, yml → yaml).
  const byExtension = /^[a-z0-9+]+$/.test(key) ? detectLanguage(`file.${key}`) : 'text';
  return new Set([byExtension !== 'text' || key === 'txt' ? byExtension : key.replace(/[\s-]+/g, '_')]);
}

/**
 * With a language filter, this many times k candidates are ranked before filtering: a chunk's language is known
 * once its row is read, and a view's files are not labelled by language before that.
 */
const LANGUAGE_OVERFETCH = 5;
const LANGUAGE_FETCH_CAP = 250;

/** How many results a search filtered to a language asks for, to keep k of them: 5 × k, at most 250 (or k itself, if more). */
export function languageFetchCount(k: number): number {
  return Math.min(k * LANGUAGE_OVERFETCH, Math.max(LANGUAGE_FETCH_CAP, k));
}

/** The results of one language among results ranked for `languageFetchCount(k)`, the best k of them. */
export function inLanguage<T extends { language: string }>(results: T[], filter: string | undefined, k: number): T[] {
  if (filter === undefined) return results.slice(0, k);
  const languages = languagesFor(filter);
  return results.filter((r) => languages.has(r.language)).slice(0, k);
}
