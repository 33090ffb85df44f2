import { forEachIndexedWord } from '../../search/indexed-words.js';
import { definitionKey } from '../../search/resident.js';
import type { ResidentState } from '../../search/resident-snapshot.js';
import { stem } from '../../text/stem.js';
import { ownDefinition } from '../../text/breadcrumb.js';
import type { NumberList, PackedLists } from '../../search/postings.js';
import { unpackStrings } from '../../search/packed-strings.js';
import { contentEmbeddingText, contentTerms } from '../content-text.js';
import { memberIndices } from '../../search/members.js';
import { nameWordsOf } from '../../search/file-names.js';

/**
 * What a search-ready set from elsewhere says beyond its rows, held to its rows for `sampled` of them: the words
 * each is found by and their weights (its postings), its length for BM25, the name it defines (the symbol table).
 * A set could otherwise rank a chunk first for any word, or answer `find_symbol check_password` with another
 * chunk. Rows are held to the repository first (RowVerifier); these are derived from them, exactly, here.
 * Returns the first problem, or null.
 */
export function derivedProblem(state: ResidentState, sampled: ReadonlySet<number>): string | null {
  const wanted = new Map<number, { words: Map<string, number>; length: number; defines: string | null }>();
  for (const i of sampled) {
    const c = state.info[i];
    const words = new Map<string, number>();
    let length = 0;
    forEachIndexedWord(contentTerms(contentEmbeddingText(c.symbol, c.text)), c.symbol, c.text, (word, weight) => {
      const key = stem(word);
      words.set(key, (words.get(key) ?? 0) + weight);
      length += weight;
    });
    const name = ownDefinition(c.symbol);
    wanted.set(i, { words, length, defines: name === null ? null : definitionKey(name) });
  }
  // Every entry of every list is visited (tokio's postings: ~500,000): a byte per row, not a set look-up.
  const rows = new Uint8Array(state.info.length);
  for (const i of sampled) rows[i] = 1;
  // Looked up by bisection, keys out of order would hide the chunks of every word they put out of reach.
  if (!state.postings.lists.keysAsSaid() || !state.definitions.keysAsSaid()) return 'its words or names are said to be in order and are not';
  const found = listed(state.postings.lists.pack(), rows, 1);
  const defined = listed(state.definitions.pack(), rows, null);
  for (const [i, want] of wanted) {
    const where = `row ${i + 1} (${state.info[i].blob.slice(0, 12)}:${state.info[i].startLine}-${state.info[i].endLine})`;
    if (Math.fround(state.lengths[i]) !== Math.fround(want.length)) return `${where} has a search length that is not its words'`;
    const has = found.get(i) ?? new Map();
    if (has.size !== want.words.size || [...want.words].some(([word, weight]) => has.get(word) !== Math.fround(weight))) return `${where} is listed under words that are not its own`;
    const names = [...(defined.get(i)?.keys() ?? [])];
    if (names.length !== (want.defines === null ? 0 : 1) || (want.defines !== null && names[0] !== want.defines)) return `${where} is listed in the symbol table under a name it does not define`;
  }
  return summaryProblem(state);
}

/**
 * Which chunks are members and each file's name words, held to the rows for every blob (a set could otherwise hide a
 * chunk from every search, or give a file another's names): cheap beside the rows' own checks (~60 ms on tokio).
 */
function summaryProblem(state: ResidentState): string | null {
  for (const [blob, chunks] of state.byBlob) {
    const members = new Set(memberIndices(state.info, chunks));
    const wrong = chunks.find((i) => state.isMember(i) !== members.has(i));
    if (wrong !== undefined) return `row ${wrong + 1} is marked a member where its file's rows say otherwise`;
    const want = nameWordsOf(state.info, chunks.filter((i) => !members.has(i)));
    const have = state.fileNames(blob);
    if (have.size !== want.size || [...want].some(([word, count]) => have.get(word) !== count)) return `the names of file ${blob.slice(0, 12)} are not its rows'`;
  }
  return null;
}

/** For each row marked 1 in `rows`, the keys whose lists name it, with the weight there (`weight` when the lists have none). */
function listed(lists: PackedLists, rows: Uint8Array, weight: number | null): Map<number, Map<string, number | null>> {
  const out = new Map<number, Map<string, number | null>>();
  const docs: NumberList = lists.columns[0];
  const weights: NumberList | undefined = lists.columns[1];
  const keys = unpackStrings(lists.keys);
  for (let k = 0; k < keys.length; k++) {
    for (let j = lists.starts[k]; j < lists.starts[k + 1]; j++) {
      if (rows[docs[j]] !== 1) continue;
      let row = out.get(docs[j]);
      if (!row) out.set(docs[j], (row = new Map()));
      row.set(keys[k], weights ? weights[j] : weight);
    }
  }
  return out;
}
