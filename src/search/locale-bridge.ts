import { cjkTerms, hasCjk } from '../text/scripts.js';
import { englishSiblings, tableEntries } from '../text/locale-table.js';
import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import { codeTerms } from '../text/terms.js';
import type { ResidentIndex } from './resident-index.js';
import { isTranslationFile } from './translation-file.js';
import type { SearchView } from './view.js';

/** One entry of a table whose value is CJK: its value's bigrams and Latin words, and the words code finds it by. */
interface Entry {
  units: string[];
  /** The key's identifier words and its English table's value words. */
  words: string[];
}

/** A view's tables of UI strings read once: entries by bigram, and every table's blob (which gains nothing). */
export interface LocaleTables {
  entries: Entry[];
  byBigram: Map<string, number[]>;
  tableBlobs: Set<string>;
}

/** The words a question's CJK brings through the tables, each with its weight. */
export interface Bridge {
  words: string[];
  weights: Map<string, number>;
  tableBlobs: Set<string>;
}

/**
 * Entries a question brings: at most this many, the best matched first. A question names one or two screens'
 * strings; a common bigram (容器, 用户) matches hundreds of entries, of which the fullest matches are the few kept
 * (3 the same, 10 less: +0.014 against +0.018 on the four projects' history questions).
 */
const MAX_ENTRIES = 5;
/**
 * An entry is matched when the question holds at least this share of its value's bigrams: at 0.5, a bigram across
 * two of the question's words (修改|成功 in 修改成功) or one word of two (工作 of 工作台 for 工作流) matched.
 */
const MIN_VALUE_SHARE = 0.75;

const cache = new WeakMap<SearchView, { resident: ResidentIndex; tables: LocaleTables }>();

/** The view's tables, read from the chunks `resident` holds for it; built once per view. */
export function localeTables(resident: ResidentIndex, view: SearchView): LocaleTables {
  const cached = cache.get(view);
  if (cached?.resident === resident) return cached.tables;
  const tables = readTables(resident, view);
  cache.set(view, { resident, tables });
  return tables;
}

function readTables(resident: ResidentIndex, view: SearchView): LocaleTables {
  const tableBlobs = new Set<string>();
  const byPath = new Map<string, string>();
  for (const f of view.files) {
    if (!isTranslationFile(f.display)) continue;
    tableBlobs.add(f.blob);
    byPath.set(f.display, f.blob);
  }
  const entries: Entry[] = [];
  const byBigram = new Map<string, number[]>();
  const read = new Map<string, Map<string, string>>();
  const entriesOf = (blob: string) => {
    let e = read.get(blob);
    if (!e) read.set(blob, (e = tableEntries(blobText(resident, blob))));
    return e;
  };
  const seen = new Set<string>();
  for (const [path, blob] of byPath) {
    const own = entriesOf(blob);
    const chinese = [...own].filter(([, v]) => hasCjk(v));
    if (!chinese.length) continue;
    const englishBlob = englishSiblings(path).map((p) => byPath.get(p)).find((b) => b !== undefined);
    const english = englishBlob ? entriesOf(englishBlob) : new Map<string, string>();
    for (const [key, value] of chinese) {
      const units = valueUnits(value);
      // Every part of the key path (`container.list` → container, list), not its last part alone: code names the
      // screen too (history sets, the four Chinese projects with tables: R@5 +0.026 against +0.018 for the last
      // part); the English table's words add to the key's (+0.018 against +0.014 without them).
      const words = [...new Set([...codeTerms(key), ...codeTerms(english.get(key) ?? '')])].filter(usefulWord);
      const id = `${key}\n${value}`;
      if (!words.length || seen.has(id)) continue;
      seen.add(id);
      for (const b of units) {
        let list = byBigram.get(b);
        if (!list) byBigram.set(b, (list = []));
        list.push(entries.length);
      }
      entries.push({ units, words });
    }
  }
  return { entries, byBigram, tableBlobs };
}

/**
 * What a value (or a question) writes, as it is matched: CJK bigrams and lower-case Latin words (`Excel 数据集` is
 * not matched by 数据集 alone).
 */
function valueUnits(text: string): string[] {
  return [...new Set([...cjkTerms(text), ...(text.toLowerCase().match(/[a-z][a-z0-9]+/g) ?? [])])];
}

function usefulWord(w: string): boolean {
  return /^[a-z][a-z0-9]+$/.test(w) && !ENGLISH_STOP_WORDS.has(w);
}

/** A blob's text from its chunks in line order (a line two chunks share is read once). */
function blobText(resident: ResidentIndex, blob: string): string {
  const lines: string[] = [];
  const chunks = [...resident.blobChunks(blob)].map((i) => resident.info[i]!).sort((a, b) => a.startLine - b.startLine);
  for (const c of chunks) c.text.split('\n').forEach((line, j) => (lines[c.startLine + j] ??= line));
  return lines.filter((l) => l !== undefined).join('\n');
}

/**
 * The words a CJK question reaches through the view's tables of UI strings: the entries whose values it writes
 * most of (by the idf of the bigrams it shares with each, times the share of the value's), and of each, its key's
 * identifier words and the English table's words for it, at `weight` times the entry's score against the best.
 * Words the question has already are left to it. Null when no entry matches.
 */
export function localeBridge(tables: LocaleTables, question: string, have: readonly string[], weight: number): Bridge | null {
  const asked = new Set(valueUnits(question));
  const n = tables.entries.length;
  const matched = new Map<number, number>();
  for (const b of asked) {
    const list = tables.byBigram.get(b);
    if (!list) continue;
    const idf = Math.log(1 + n / list.length);
    for (const e of list) matched.set(e, (matched.get(e) ?? 0) + idf);
  }
  const scored: [number, number][] = [];
  for (const [e, idfSum] of matched) {
    const entry = tables.entries[e]!;
    const share = entry.units.filter((b) => asked.has(b)).length / entry.units.length;
    if (share >= MIN_VALUE_SHARE) scored.push([e, idfSum * share]);
  }
  if (!scored.length) return null;
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const best = scored[0]![1];
  const own = new Set(have);
  const weights = new Map<string, number>();
  for (const [e, score] of scored.slice(0, MAX_ENTRIES)) {
    for (const w of tables.entries[e]!.words) {
      if (own.has(w)) continue;
      weights.set(w, Math.max(weights.get(w) ?? 0, (weight * score) / best));
    }
  }
  return weights.size ? { words: [...weights.keys()], weights, tableBlobs: tables.tableBlobs } : null;
}
