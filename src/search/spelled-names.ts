import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import { definesName, innermost } from '../text/breadcrumb.js';
import { definitionKey, type ResidentChunks } from './resident.js';

/**
 * Names a sentence spells as separate words: `JSON element` for `JsonElement`, `type adapter factories` for
 * `TypeAdapterFactory`, `parser settings` for `ParserSettings`. The query gives candidate keys (pure, from its text);
 * the symbol table says which of them the view defines. Only names written as one word (`JsonElement`, `classBuilder`):
 * the same runs joined by `_` (`render_template`) measured nothing (benchmark 0.902 both, dev set 0.846 → 0.845).
 */

/**
 * Runs of two or three adjacent content words, joined and lower-cased as the symbol table keys names
 * (`definitionKey`), the last word also in the singular (`factories` → `factory`).
 */
export function spelledNameKeys(text: string): string[] {
  const out = new Set<string>();
  for (const run of contentRuns(text)) {
    for (let i = 0; i < run.length; i++) {
      for (let n = 2; n <= MAX_WORDS && i + n <= run.length; n++) {
        const head = run.slice(i, i + n - 1).join('');
        for (const last of withSingular(run[i + n - 1]!)) out.add(head + last);
      }
    }
  }
  return [...out];
}

/** Three words make `TypeAdapterFactory`; longer runs are phrases more often than names. */
const MAX_WORDS = 3;

/** Runs of adjacent words with no stop word or punctuation between them (`content-type` is two words of one run). */
function contentRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const clause of text.split(/[,;:()[\]{}"'`!?]|\.(?:\s|$)/)) {
    let run: string[] = [];
    for (const raw of clause.split(/[\s/-]+/)) {
      const word = raw.toLowerCase();
      if (/^[a-z][a-z0-9]+$/.test(word) && !ENGLISH_STOP_WORDS.has(word)) run.push(word);
      else {
        if (run.length > 1) runs.push(run);
        run = [];
      }
    }
    if (run.length > 1) runs.push(run);
  }
  return runs;
}

function withSingular(word: string): string[] {
  if (word.endsWith('ies')) return [word, `${word.slice(0, -3)}y`];
  if (/(?:ss|us|is)$/.test(word)) return [word];
  if (/(?:ch|sh|x|ss)es$/.test(word)) return [word, word.slice(0, -2)];
  if (word.endsWith('s')) return [word, word.slice(0, -1)];
  return [word];
}

/** The visible definitions of names the query spells: the names each file (blob) defines, and which several define. */
export interface SpelledDefinitions {
  byBlob: Map<string, string[]>;
  chunks: number[];
  /** Names more than one file defines (`ValidationError` in two modules): only a file named after one counts. */
  shared: Set<string>;
}

/** The visible definitions whose name a key spells. */
export function spelledDefinitions(resident: ResidentChunks, visible: Uint8Array, keys: readonly string[]): SpelledDefinitions {
  const out: SpelledDefinitions = { byBlob: new Map(), chunks: [], shared: new Set() };
  for (const key of keys) {
    const found = new Map<string, Set<string>>();
    for (const index of resident.definitionsOf(key)) {
      if (!visible[index]) continue;
      const { symbol, blob } = resident.info[index]!;
      const element = innermost(symbol);
      if (!element || !definesName(element) || definitionKey(element.name) !== key) continue;
      out.chunks.push(index);
      if (!found.has(blob)) found.set(blob, new Set());
      found.get(blob)!.add(element.name);
    }
    for (const [blob, names] of found) {
      if (found.size > 1) for (const name of names) out.shared.add(name);
      out.byBlob.set(blob, [...(out.byBlob.get(blob) ?? []), ...names]);
    }
  }
  return out;
}
