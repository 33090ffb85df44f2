import { definitionLine } from '../search/excerpt.js';
import type { LineSpan } from '../search/excerpt.js';
import type { SearchResult } from '../search/search.js';
import { numberedLines, type NumberedLine } from './lines.js';
import type { LeftOut, SearchReport } from './report.js';

/**
 * Tokens of text as LLM tokenizers count them, by script: characters of CJK scripts (Han, kana, Hangul, their
 * punctuation and full-width forms) cost about one token each, everything else about a token per 3.4 characters.
 * Measured on this repository's code (src/, test/ and fixtures/languages: 2.05 M characters, 471 files without
 * CJK) and on Chinese prose (fixtures/sample-cjk's manual and the Chinese commit messages of bench/history/sets:
 * 18,293 CJK and 6,954 other characters, 983 texts), once, with the npm packages @anthropic-ai/tokenizer 0.0.4 and
 * gpt-tokenizer 4.0.0 (not dependencies of ocrag):
 *
 *   tokenizer          code: chars/token   Chinese: tokens per CJK character (others at the code rate)
 *   Claude             3.42                0.88
 *   GPT-4 cl100k       3.77                1.00
 *   GPT-4o o200k       3.73                0.74
 *
 * The budget takes the most tokens any of them counts for each script (3.4 and 1.0): on the code it says 604,264
 * tokens (they count 600,441, 545,595, 550,254), on the Chinese 20,338 (18,176, 20,191, 15,337), on the CJK
 * fixture's code with Chinese comments (1,440 + 121 CJK characters) 545 (568, 534, 494). Characters / 4, the estimate
 * before, said 6,312 for the Chinese: a third of Claude's count. (The only tokenizer.json here, the embedding
 * model's, splits identifiers and drops whitespace: 2.91 and 0.70, no LLM's count.)
 */
const CHARS_PER_TOKEN = 3.4;
const TOKENS_PER_CJK_CHAR = 1;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;

/** Tokens of `text` as an LLM counts them (see above), rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(tokensOf(text));
}

function tokensOf(text: string): number {
  let cjk = 0;
  let cjkUnits = 0;
  for (const m of text.matchAll(CJK_CHAR)) {
    cjk++;
    cjkUnits += m[0].length;
  }
  return (text.length - cjkUnits) / CHARS_PER_TOKEN + cjk * TOKENS_PER_CJK_CHAR;
}

export interface Trimmed {
  /** The report as it fits, with `leftOut` saying what the budget took when it took anything. */
  report: SearchReport;
  /** Results left out whole. */
  dropped: number;
  /** Results shown cut to their first lines (0 or 1: the best, when even it does not fit whole). */
  cut: number;
  tokens: number;
}

/**
 * Keeps the best-ranked results whose rendering fits in `maxTokens`, dropping whole results from the end. When not
 * even the best one fits whole, the answer is never empty: that result comes cut to its location (path, lines and
 * symbol, in its heading) and as many of its first lines as fit (from its definition line, when a doc comment before
 * it would not leave room for it), with a marker line for the rest; a single line too long for the budget leaves the
 * location alone. The rendering then ends by saying what was left out (`leftOut`), in every format.
 */
export function trimToTokenBudget(report: SearchReport, maxTokens: number, render: (r: SearchReport) => string): Trimmed {
  const results = report.results;
  const whole = estimateTokens(render(report));
  if (whole <= maxTokens || results.length === 0) return { report, dropped: 0, cut: 0, tokens: whole };
  // Room is kept for the closing line at its longest (every result left out, one cut).
  const reserve: LeftOut = { dropped: results.length, cut: 1, maxTokens };
  const cost = (shown: SearchResult[]) => tokensOf(render({ ...report, results: shown, leftOut: reserve }));
  const frame = cost([]);
  let tokens = frame;
  let kept = 0;
  for (const result of results) {
    const more = cost([result]) - frame;
    if (tokens + more > maxTokens) break;
    tokens += more;
    kept++;
  }
  const shown = kept > 0 ? results.slice(0, kept) : [cutToFit(results[0]!, (r) => cost([r]) <= maxTokens)];
  const cut = kept > 0 ? 0 : 1;
  const leftOut: LeftOut = { dropped: results.length - shown.length, cut, maxTokens };
  const trimmed = { ...report, results: shown, leftOut };
  return { report: trimmed, dropped: leftOut.dropped, cut, tokens: estimateTokens(render(trimmed)) };
}

/** The result with as many of its shown lines as `fits` allows (at least none: its location and a marker remain). */
function cutToFit(result: SearchResult, fits: (r: SearchResult) => boolean): SearchResult {
  const lines = numberedLines(result);
  const def = definitionLine(result.text, result.symbol);
  // From the first line, unless that would not reach the definition line: then from the definition line.
  const from = def > 0 && !fits(cutResult(result, lines, 0, def + 1)) ? def : 0;
  let lo = 0;
  let hi = lines.length - from;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(cutResult(result, lines, from, mid))) lo = mid;
    else hi = mid - 1;
  }
  return cutResult(result, lines, from, lo);
}

/**
 * The result showing `count` lines of its text from line `from` (0-based), with a marker line for each run of its
 * lines not shown, as a long chunk's excerpt marks its cuts; `shown` lists the file lines it still shows.
 */
function cutResult(result: SearchResult, lines: NumberedLine[], from: number, count: number): SearchResult {
  const kept = lines.slice(from, from + count);
  // A marker of an earlier cut at either end would only stand beside the budget's own.
  while (kept.length && kept[0]!.line === null) kept.shift();
  while (kept.length && kept[kept.length - 1]!.line === null) kept.pop();
  const shown: LineSpan[] = [];
  for (const { line } of kept) {
    if (line === null) continue;
    const last = shown[shown.length - 1];
    if (last && last.endLine === line - 1) last.endLine = line;
    else shown.push({ startLine: line, endLine: line });
  }
  const first = shown[0]?.startLine ?? result.endLine + 1;
  const last = shown[shown.length - 1]?.endLine ?? result.startLine - 1;
  const out = [
    ...(first > result.startLine ? [marker(result.startLine, Math.min(first - 1, result.endLine))] : []),
    ...kept.map((l) => l.text),
    ...(last < result.endLine && shown.length ? [marker(last + 1, result.endLine)] : []),
  ];
  return { ...result, text: out.join('\n'), shown };
}

/** The marker line for lines `from..to` left out, as excerpt.ts marks a long chunk's cuts (the answer's last line says why). */
function marker(from: number, to: number): string {
  const n = to - from + 1;
  return `⋮ ${n} line${n === 1 ? '' : 's'} cut (${from}-${to})`;
}
