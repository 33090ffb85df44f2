import { stem } from '../text/stem.js';
import { codeTerms } from '../text/terms.js';
import { BoundedMemo } from '../util/bounded-memo.js';

/** Lines of a chunk as shown, 1-based and inclusive, in the file's numbering. */
export interface LineSpan {
  startLine: number;
  endLine: number;
}

/** What a result shows of its chunk: all of it (`shown` absent), or some spans with a marker line for each cut. */
export interface Excerpt {
  text: string;
  shown?: LineSpan[];
}

/**
 * A chunk of up to 40 lines is shown whole, as most functions are (of the public benchmark's top-10 results the
 * median is 17 lines, three quarters are under 42). A longer one shows its definition line and 24 lines: from
 * just above the line declaring the identifier the query names, else those holding most of the query's words.
 * Measured with `npm run eval` (tokens ~ characters / 4): mean tokens read to the first relevant result 358 → 239
 * on the public set (Chinese queries 373 → 260, the dev set 788 → 506), recall at 1,000 tokens 0.914 → 0.957,
 * NDCG@10 unchanged on both public sets (scored by the lines shown).
 */
export const WHOLE_LINES = 40;
export const WINDOW_LINES = 24;
/** The definition line is looked for in the chunk's first lines (a doc comment or decorators may come first). */
const HEAD_SEARCH_LINES = 15;
/** A signature broken over lines continues until a line opens the body, up to this many lines. */
const HEAD_MAX_LINES = 3;
/** A cut of this many lines or fewer is shown instead: its marker line would cost about as much. */
const MIN_CUT = 2;

const OPENS_BODY = /(?:[{:(\[,=]|=>|->|\bdo|\bthen|\bbegin)\s*$/;

/** What of the query chooses the part shown (`analyzeQuery`'s). */
export interface ExcerptQuery {
  /** Lexical terms: the window holding most of them is shown. */
  terms: readonly string[];
  /** Identifiers the query names: a line defining one is shown first. */
  symbols: readonly string[];
}

/**
 * The part of a chunk that answers the query. Cuts fall only between lines, so no character (a Chinese one, an
 * emoji's surrogate pair) is ever split.
 */
export function excerpt(text: string, startLine: number, symbol: string, query: ExcerptQuery): Excerpt {
  const lines = text.split('\n');
  if (lines.length <= WHOLE_LINES) return { text };
  const head = headOf(lines, innermostName(symbol));
  const window = definitionWindow(lines, query.symbols) ?? bestWindow(text, lines, new Set(query.terms.map(stem)), head.end + 1);
  const spans = mergeSpans([head, window], lines.length);
  if (spans.length === 1 && spans[0]!.start === 0 && spans[0]!.end === lines.length - 1) return { text };
  const out: string[] = [];
  let next = 0;
  for (const s of spans) {
    if (s.start > next) out.push(cutMarker(startLine + next, startLine + s.start - 1));
    out.push(...lines.slice(s.start, s.end + 1));
    next = s.end + 1;
  }
  if (next < lines.length) out.push(cutMarker(startLine + next, startLine + lines.length - 1));
  return { text: out.join('\n'), shown: spans.map((s) => ({ startLine: startLine + s.start, endLine: startLine + s.end })) };
}

/** The index of the line of `text` that defines `symbol` (0 when only a line or two of doc comment come before it). */
export function definitionLine(text: string, symbol: string): number {
  return headOf(text.split('\n'), innermostName(symbol)).start;
}

/** The marker line standing for lines `from..to` of the file. */
function cutMarker(from: number, to: number): string {
  const n = to - from + 1;
  return `⋮ ${n} line${n === 1 ? '' : 's'} cut (${from}-${to})`;
}

interface Span {
  start: number;
  end: number;
}

/** `class Router > method handle` → `handle`; `Sinatra::Base` → `Base`. */
function innermostName(symbol: string): string {
  const last = symbol.split('>').pop()?.trim() ?? '';
  const name = last.split(/\s+/).pop() ?? '';
  return name.split(/::|\.|#/).pop() ?? '';
}

/** The line that defines the chunk's symbol (else the first line with text) and its continuation lines. */
function headOf(lines: string[], name: string): Span {
  const limit = Math.min(lines.length, HEAD_SEARCH_LINES);
  let start = name ? lines.slice(0, limit).findIndex((l) => l.includes(name)) : -1;
  if (start < 0) start = Math.max(0, lines.findIndex((l) => l.trim() !== ''));
  let end = start;
  while (end - start + 1 < HEAD_MAX_LINES && end + 1 < lines.length && !OPENS_BODY.test(lines[end]!)) end++;
  return { start: start <= MIN_CUT ? 0 : start, end };
}

/**
 * The WINDOW_LINES lines holding the most distinct query terms, then the most occurrences; the earliest of
 * equals. With no query term in the chunk, the lines right after the head (`fallback`: how the body begins).
 */
function bestWindow(text: string, lines: string[], terms: ReadonlySet<string>, fallback: number): Span {
  const lineTerms: string[][] = terms.size === 0 ? lines.map(() => []) : lineStemsOf(text, lines).map((stems) => stems.filter((t) => terms.has(t)));
  let best = { start: Math.min(fallback, lines.length - WINDOW_LINES), distinct: 0, hits: 0 };
  // The window slides a line at a time: each term's count in it, the lines entering and leaving.
  const counts = new Map<string, number>();
  let hits = 0;
  const enter = (i: number, by: 1 | -1) => {
    for (const t of lineTerms[i]!) {
      const n = (counts.get(t) ?? 0) + by;
      if (n) counts.set(t, n);
      else counts.delete(t);
    }
    hits += by * lineTerms[i]!.length;
  };
  for (let i = 0; i < WINDOW_LINES - 1 && i < lines.length; i++) enter(i, 1);
  for (let start = 0; start + WINDOW_LINES <= lines.length; start++) {
    enter(start + WINDOW_LINES - 1, 1);
    if (counts.size > best.distinct || (counts.size === best.distinct && hits > best.hits)) best = { start, distinct: counts.size, hits };
    enter(start, -1);
  }
  return { start: best.start, end: Math.min(lines.length, best.start + WINDOW_LINES) - 1 };
}

/**
 * Long chunks whose lines' stemmed words are kept: the same chunks come back for many queries, and splitting and
 * stemming every line of each again was most of an excerpt's time. A few thousand long chunks, a few KB each.
 */
const lineStems = new BoundedMemo<string, string[][]>(2048);

/** Each of `lines`' words, stemmed (`text` split into lines, by which they are remembered). */
function lineStemsOf(text: string, lines: string[]): string[][] {
  return lineStems.get(text, () => lines.map((l) => codeTerms(l).map(stem)));
}

/** A declaration keyword before a name on its line: `fun <T> X.name(`, `def name`, `public static Foo name(`. */
const DECLARES = /\b(?:fun|def|defp|defmacro|function|func|fn|class|struct|interface|trait|object|enum|type|typedef|module|protocol|extension|val|var|let|const|void|public|private|protected|internal|static|override|inline|async)\b/;
/** Lines of context (a doc comment, annotations) kept above a definition the query names. */
const DEFINITION_LEAD = 4;

/** For a query naming an identifier, the window from just above the line that declares it, if the chunk has one. */
function definitionWindow(lines: string[], symbols: readonly string[]): Span | null {
  const names = symbols.map((s) => s.split(/::|\.|#|->|\\/).pop()!).filter((n) => n.length > 2);
  if (!names.length) return null;
  const at = lines.findIndex((l) => names.some((n) => declares(l, n)));
  if (at < 0) return null;
  const start = Math.max(0, Math.min(at - DEFINITION_LEAD, lines.length - WINDOW_LINES));
  return { start, end: start + WINDOW_LINES - 1 };
}

function declares(line: string, name: string): boolean {
  const i = line.search(new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`));
  return i > 0 && DECLARES.test(line.slice(0, i));
}

/** Spans in order with the short cuts between them (and at the end) filled in. */
function mergeSpans(spans: Span[], n: number): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && s.start - last.end - 1 <= MIN_CUT) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  const last = out[out.length - 1]!;
  if (n - 1 - last.end <= MIN_CUT) last.end = n - 1;
  return out;
}
