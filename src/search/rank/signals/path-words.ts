import { normalsMatch, normalWord } from '../../../text/path-words.js';
import { stem } from '../../../text/stem.js';
import type { ViewFile } from '../../view.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /** Files whose path words match the query's words. */
  pathWords: true,
  pathBoost: 1,
  /** Path matches weaker than this share of the query's words add nothing. */
  pathMinMatch: 0.1,
  /**
   * A match in the file's directory, relative to one in its name: the name says what the file is about, its folder
   * what it sits among (benchmark / dev set: 1 → 0.892 / 0.844, 0.8 → 0.893 / 0.845, 1.2 clearly worse).
   */
  pathDirWeight: 0.8,
  /**
   * Weight of a match one or two directories above the file's own. (Weighing each query word by how few paths it
   * matches, or leaving out words no path holds, lowered every set: docs/retrieval.md.)
   */
  pathAboveWeight: 0.3,
};

/** Files whose path words match the query's words. */
export const pathWords: BoostSignal<typeof DEFAULTS> = {
  name: 'pathWords',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.pathBoost,
  prepare: ({ q, cfg, view }) => {
    const paths = new PathScorer(q.keywords, view.pathWords, { dirWeight: cfg.pathDirWeight, aboveWeight: cfg.pathAboveWeight });
    return (hit) => {
      const match = paths.score(hit.file);
      return match >= cfg.pathMinMatch ? match : 0;
    };
  },
};

const normalized = new WeakMap<Set<string>, { word: string; normal: string }[]>();

/**
 * A view's path words with their normal forms, worked out once per view: a large tree has more distinct path
 * words than the normal-form memo holds, and would otherwise normalise them all again for every query.
 */
function normalizedWords(pathWords: Set<string>): { word: string; normal: string }[] {
  let list = normalized.get(pathWords);
  if (!list) {
    list = [...pathWords].map((word) => ({ word, normal: word.length < 2 ? word : normalWord(word) }));
    normalized.set(pathWords, list);
  }
  return list;
}

const matches = new WeakMap<Set<string>, Map<string, Set<string>>>();
/** Keywords whose matching path words a view keeps (a query's few, over a session's queries). */
const MATCHED_KEYWORDS = 4096;

/** The path words of a view a keyword matches, compared once per view and keyword (a read-only set, shared). */
function matchingWords(pathWords: Set<string>, keyword: string): Set<string> {
  let byKeyword = matches.get(pathWords);
  if (!byKeyword) matches.set(pathWords, (byKeyword = new Map()));
  let matching = byKeyword.get(keyword);
  if (!matching) {
    matching = new Set<string>();
    const normalKeyword = normalWord(keyword);
    for (const { word, normal } of normalizedWords(pathWords)) {
      if (keyword === word || (keyword.length >= 2 && word.length >= 2 && normalsMatch(normalKeyword, normal))) matching.add(word);
    }
    if (byKeyword.size >= MATCHED_KEYWORDS) byKeyword.clear();
    byKeyword.set(keyword, matching);
  }
  return matching;
}

/** Files that stand for their directory: a query naming the directory names them. */
const MODULE_ROOTS = new Set(['mod', 'index', 'init', 'lib', 'main', 'package', 'packageinfo']);

export interface PathScoring {
  /** Weight of a match in the directory holding the file (a match in the file name weighs 1). */
  dirWeight: number;
  /** Weight of a match one or two directories above the file's own. */
  aboveWeight: number;
}

/**
 * How well paths answer one query's words, 0..1 per file: each keyword found in the file name counts 1, in the
 * directory holding it `dirWeight` (1 for module roots like `mod.rs`, which stand for their directory), two
 * levels up `aboveWeight`. Memoised per query.
 */
export class PathScorer {
  private readonly byPath = new Map<string, number>();
  /** Per keyword, the view's path words it matches (each path word is compared once per query). */
  private readonly matching: Set<string>[];

  constructor(private readonly keywords: string[], pathWords: Set<string>, private readonly opts: PathScoring) {
    this.matching = keywords.map((k) => matchingWords(pathWords, k));
  }

  score(file: ViewFile): number {
    let s = this.byPath.get(file.path);
    if (s === undefined) this.byPath.set(file.path, (s = this.compute(file)));
    return s;
  }

  private compute(file: ViewFile): number {
    if (!this.keywords.length) return 0;
    const root = MODULE_ROOTS.has(file.stemWords[0] ?? '');
    const name = root ? (file.dirWords[0] ?? []) : file.stemWords;
    const dir = root ? (file.dirWords[1] ?? []) : (file.dirWords[0] ?? []);
    const above = file.dirWords.slice(root ? 2 : 1, root ? 4 : 3);
    let matched = 0;
    for (const m of this.matching) {
      if (!m.size) continue;
      if (name.some((x) => m.has(x))) matched += 1;
      else if (dir.some((x) => m.has(x))) matched += this.opts.dirWeight;
      else if (above.some((ws) => ws.some((x) => m.has(x)))) matched += this.opts.aboveWeight;
    }
    return matched / this.keywords.length;
  }
}

/** A file named after the name (`routergroup.go` for `RouterGroup`, `sessions.py` for `Session`). */
export function stemNamesSymbol(file: ViewFile, name: string): boolean {
  const lower = name.toLowerCase();
  const whole = file.stemWords[0] ?? '';
  return whole === lower || stem(whole) === stem(lower) || whole === lower + 's';
}
