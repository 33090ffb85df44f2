import { ENGLISH_STOP_WORDS } from '../text/stop-words.js';
import { codeTerms } from '../text/terms.js';
import { isUserPath, stackFrames, type StackFrame } from './stack-frames.js';

/**
 * A long query (a pasted bug report, stack trace or issue text) read as weighted parts: what in it points at
 * code (frames, paths, identifiers, error lines, quoted code) weighs more than its prose, and its prose weighs
 * less the more of it there is. Pure: the text alone decides.
 */
export interface QueryParts {
  /** Every lexical term kept, each with its weight (the strongest part it appears in), heaviest first. */
  terms: [string, number][];
  /** Identifiers to look up as definitions, heaviest first, with their weight relative to the heaviest (0..1]. */
  symbols: [string, number][];
  /** Files the query names (frames, `path/file.ext:12`), with the weight of each (the top frame's is 1). */
  paths: PathHint[];
  /** Path words of the code parts, heaviest first: what file and folder names the query points at. */
  keywords: string[];
  /** What the query's vector reads: the head of the text, then its heaviest parts (the model reads its first tokens only). */
  embedText: string;
}

export interface PathHint {
  path: string;
  line: number | null;
  weight: number;
}

/** Queries shorter than this are questions, not pasted reports (the benchmark's longest is 89 characters). */
const LONG_QUERY_CHARS = 200;

/** The weights of parts, relative to a word of prose in a short report (1). */
const WEIGHT = {
  /** The innermost frame in the user's code: where the failure is. */
  topFrame: 4,
  /** The user's other frames, by distance from the top one: 2, 1.4, 1, … down to `frameFloor`. */
  nextFrame: 2,
  frameDecay: 0.7,
  frameFloor: 0.5,
  /** Frames in dependencies, the standard library or the runtime: where the failure passed, not where it is. */
  foreignFrame: 0.1,
  /** An exception or error name (`KeyError`, `ParseError`) and the words of an error line. */
  errorName: 2,
  errorLine: 1.5,
  /** Identifiers written as code: `snake_case`, `camelCase`, `Foo::bar`, `foo.bar()`, `quoted code`. */
  identifier: 2,
  /** A file path written in the text (`src/x.rs`, `config.py:40`). */
  path: 2,
};

/** Path hints: the top frame's file is the answer most often; a path written in prose is weaker evidence. */
const PATH_WEIGHT = { topFrame: 1, nextFrame: 0.5, written: 0.6 };

/** Prose words weigh 1 up to this many distinct ones, then less in proportion, never below `PROSE_FLOOR`. */
const PROSE_REFERENCE_WORDS = 40;
const PROSE_FLOOR = 0.2;
/** Bounds on what one query asks of the indexes, so a 10,000-character paste answers as fast as a question. */
const MAX_TERMS = 300;
const MAX_SYMBOLS = 12;
const MAX_KEYWORDS = 12;
/**
 * What the vector reads before the heaviest parts are added: a report's subject and first lines (long-query set:
 * NDCG@10 0.682 at 200 characters, 0.671 at 400, 0.663 at 1,000, 0.645 for the whole text).
 */
const EMBED_HEAD_CHARS = 200;

const ERROR_NAME = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Panic|Fault|Failure)\b/g;
const ERROR_LINE = /^\s*(?:(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Panic|Fault)\b|panic:|thread '[^']*' panicked|(?:fatal )?error(?:\[\w+\])?:|Uncaught\b)/i;
const IDENTIFIER = /(?:\b[A-Za-z_$][\w$]*(?:(?:::|\.|->|#)[A-Za-z_$][\w$]*)+(?:\(\))?|\b[A-Za-z_$][\w$]*\(\)|\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b)/g;
const QUOTED_CODE = /`([^`\n]{2,200})`/g;
const FENCE = /```[^\n`]*\n([\s\S]*?)```/g;
const WRITTEN_PATH = /(?:^|[\s("'`])((?:[\w.-]+\/)*[\w.-]+\.(?:go|py|rs|js|mjs|cjs|jsx|ts|tsx|java|kt|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|ex|exs|lua|zig|sh|toml|ya?ml|json))(?::(\d+))?\b/g;

export function isLongQuery(text: string): boolean {
  return text.length >= LONG_QUERY_CHARS || stackFrames(text).frames.length >= 2;
}

export function queryParts(query: string): QueryParts {
  let text = query;
  const weights = new Map<string, number>();
  const symbols = new Map<string, number>();
  const keywords = new Map<string, number>();
  const raise = (map: Map<string, number>, key: string, w: number) => map.set(key, Math.max(map.get(key) ?? 0, w));
  const addTerms = (part: string, w: number) => {
    for (const t of codeTerms(part)) if (usefulTerm(t)) raise(weights, t, w);
  };
  const addName = (name: string, w: number) => {
    const bare = name.replace(/\(\)$/, '');
    const last = bare.split(/::|\.|->|#/).filter(Boolean).pop();
    if (!last || last.length < 2) return;
    raise(symbols, last, w);
    if (last !== bare) raise(symbols, bare, w);
    addTerms(bare, w);
  };
  const addPathWords = (path: string, w: number) => {
    const parts = path.split(/[/\\]/).filter(Boolean).slice(-3);
    for (const part of parts) for (const word of codeTerms(part.replace(/\.\w+$/, ''))) if (usefulTerm(word)) raise(keywords, word, w);
  };

  const { frames, innermostLast, frameLines } = stackFrames(text);
  const paths = framePaths(frames, innermostLast);
  for (const hint of paths) {
    const frame = frames.find((f) => f.path === hint.path && f.line === hint.line);
    const w = hint.weight === PATH_WEIGHT.topFrame ? WEIGHT.topFrame : Math.max(WEIGHT.frameFloor, WEIGHT.nextFrame * hint.weight / PATH_WEIGHT.nextFrame);
    addTerms(hint.path.split(/[/\\]/).pop()!.replace(/\.\w+$/, ''), w);
    addPathWords(hint.path, w);
    if (frame?.fn) addName(frame.fn, w);
    // The line a Python frame prints is the code that failed there: its names weigh as the frame does, a little less.
    if (frame?.code) for (const m of frame.code.matchAll(IDENTIFIER)) addName(m[0], w / 2);
    if (frame?.code) addTerms(frame.code, w / 2);
  }
  for (const f of frames) if (!f.user) addTerms(`${f.path} ${f.fn ?? ''}`, WEIGHT.foreignFrame);
  // What is left once the frames are taken out: the report's own words, error lines and code.
  text = text.split('\n').filter((_, i) => !frameLines.has(i)).join('\n');

  for (const m of text.matchAll(WRITTEN_PATH)) {
    const path = m[1]!;
    if (!path.includes('/') && !m[2] && !/\.\w+$/.test(path)) continue;
    if (!paths.some((p) => p.path.endsWith(path))) paths.push({ path, line: m[2] ? Number(m[2]) : null, weight: isUserPath(path) ? PATH_WEIGHT.written : 0 });
    addTerms(path.replace(/\.\w+$/, ''), WEIGHT.path);
    addPathWords(path, WEIGHT.path);
  }
  for (const line of text.split('\n')) if (ERROR_LINE.test(line)) addTerms(line, WEIGHT.errorLine);
  for (const m of text.matchAll(ERROR_NAME)) addName(m[0], WEIGHT.errorName);
  const code = [...text.matchAll(FENCE)].map((m) => m[1]!).concat([...text.matchAll(QUOTED_CODE)].map((m) => m[1]!));
  for (const snippet of code) for (const m of snippet.matchAll(IDENTIFIER)) addName(m[0], WEIGHT.identifier);
  const prose = text.replace(FENCE, ' ');
  for (const m of prose.matchAll(IDENTIFIER)) if (!/^\w+\.\w{1,4}$/.test(m[0]) || m[0].endsWith('()')) addName(m[0], WEIGHT.identifier);

  const proseWords = new Set(codeTerms(prose).filter(usefulTerm));
  const proseWeight = Math.max(PROSE_FLOOR, Math.min(1, PROSE_REFERENCE_WORDS / Math.max(1, proseWords.size)));
  for (const t of proseWords) raise(weights, t, proseWeight);

  const terms = heaviest(weights, MAX_TERMS);
  const named = heaviest(symbols, MAX_SYMBOLS);
  const top = named[0]?.[1] ?? 1;
  const focus = [...new Set([...named.map(([n]) => n), ...terms.slice(0, 20).map(([t]) => t)])].join(' ');
  return {
    terms,
    symbols: named.map(([n, w]) => [n, w / top]),
    paths: paths.filter((p) => p.weight > 0),
    keywords: heaviest(keywords, MAX_KEYWORDS).map(([k]) => k),
    embedText: `${query.slice(0, EMBED_HEAD_CHARS)}\n${focus}`,
  };
}

/** User frames as path hints, the innermost first at weight 1, the others decaying with distance from it. */
function framePaths(frames: StackFrame[], innermostLast: boolean): PathHint[] {
  const user = frames.filter((f) => f.user);
  if (innermostLast) user.reverse();
  const out: PathHint[] = [];
  user.forEach((f, i) => {
    if (out.some((p) => p.path === f.path && p.line === f.line)) return;
    const weight = i === 0 ? PATH_WEIGHT.topFrame : Math.max(0.1, PATH_WEIGHT.nextFrame * WEIGHT.frameDecay ** (i - 1));
    out.push({ path: f.path, line: f.line, weight });
  });
  return out;
}

/** Line numbers, addresses and stop words say nothing about which code. */
function usefulTerm(term: string): boolean {
  return !/^\d+$/.test(term) && !/^x?[0-9a-f]*\d[0-9a-f]*$/.test(term) && !ENGLISH_STOP_WORDS.has(term);
}

/** The `n` heaviest entries, ties in the order first met. */
function heaviest(map: Map<string, number>, n: number): [string, number][] {
  return [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
}
