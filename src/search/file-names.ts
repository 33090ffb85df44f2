import type { ChunkInfo } from '../store/contract.js';
import { parseBreadcrumb } from '../text/breadcrumb.js';
import { stem } from '../text/stem.js';
import { codeTerms } from '../text/terms.js';
import { packStrings, unpackStrings, type PackedStrings } from './packed-strings.js';
import { SectionDamageError } from './sectioned-file.js';

/**
 * The names a file defines as words, for its summary (rank/signals/file-topic.ts): each distinct breadcrumb name of
 * its visible chunks (members left out, search/members.ts) split into code words and stemmed, with how often each
 * stem comes. Depends on the blob's chunks alone, so the resident set works it out once per blob and its snapshot
 * keeps it: building it from every visible chunk's breadcrumb was ~70 ms of a one-shot "how does…" search on tokio.
 */
export type NameWords = ReadonlyMap<string, number>;

/** The name words of a blob a set does not hold. */
export const NO_NAME_WORDS: NameWords = new Map();

export function nameWordsOf(info: readonly ChunkInfo[], chunks: Iterable<number>): Map<string, number> {
  const bag = new Map<string, number>();
  const seen = new Set<string>();
  for (const i of chunks) {
    for (const e of parseBreadcrumb(info[i].symbol)) {
      if (!e.name || seen.has(e.name)) continue;
      seen.add(e.name);
      for (const w of codeTerms(e.name)) {
        const st = stem(w);
        bag.set(st, (bag.get(st) ?? 0) + 1);
      }
    }
  }
  return bag;
}

/** Every blob's name words as a snapshot keeps them: one word table, and per blob a run of (word, count). */
export interface PackedNameWords {
  words: PackedStrings;
  /** Where each blob's run starts in `ids` and `counts`, one more than there are blobs. */
  starts: Uint32Array;
  ids: Uint32Array;
  counts: Uint32Array;
}

export function packNameWords(bags: Iterable<NameWords>): PackedNameWords {
  const wordIds = new Map<string, number>();
  const starts: number[] = [0];
  const ids: number[] = [];
  const counts: number[] = [];
  for (const bag of bags) {
    for (const [word, count] of bag) {
      let id = wordIds.get(word);
      if (id === undefined) wordIds.set(word, (id = wordIds.size));
      ids.push(id);
      counts.push(count);
    }
    starts.push(ids.length);
  }
  return { words: packStrings([...wordIds.keys()]), starts: Uint32Array.from(starts), ids: Uint32Array.from(ids), counts: Uint32Array.from(counts) };
}

/**
 * Reads blob `k`'s name words back; null when the sections' lengths do not add up. The runs are checked, and the
 * word table decoded, on first use, which a search asks only for a question on how the code works: runs that do not
 * add up (a set from elsewhere is held to its rows by verify/search-set.ts, but must never index out of its own
 * tables) throw SectionDamageError, on which the search drops the snapshot and builds its set anew.
 */
export function unpackNameWords(packed: PackedNameWords, blobs: number): ((k: number) => NameWords) | null {
  const { starts, ids, counts } = packed;
  if (starts.length !== blobs + 1 || starts[0] !== 0 || ids.length !== counts.length || starts[blobs] !== ids.length) return null;
  let words: string[] | undefined;
  const checked = () => {
    for (let k = 0; k < blobs; k++) if (starts[k + 1] < starts[k]) throw new SectionDamageError('the name words of a snapshot do not add up');
    const wordCount = packed.words.ends.length;
    for (let j = 0; j < ids.length; j++) if (ids[j] >= wordCount) throw new SectionDamageError('the name words of a snapshot name no word');
    return unpackStrings(packed.words);
  };
  return (k) => {
    words ??= checked();
    const bag = new Map<string, number>();
    for (let j = starts[k]; j < starts[k + 1]; j++) bag.set(words[ids[j]], counts[j]);
    return bag;
  };
}
