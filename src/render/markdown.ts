import { shownRanges } from './lines.js';
import { echoedQuery, leftOutNote, type SearchReport } from './report.js';

/**
 * One `### path:start-end` heading (with `quoted "caf\351.py"`, the exact name, when the path is not) and one fenced
 * block per result; fences outgrow any backtick run in the code. A last line says what a token budget left out,
 * and one that the answer is partial (a fresh clone's, while its first index is built).
 */
export function formatMarkdown(report: SearchReport): string {
  const n = report.results.length;
  const out = [`${n} result${n === 1 ? '' : 's'} for ${inlineCode(echoedQuery(report.query))} (${Math.round(report.latencyMs)} ms)`];
  for (const r of report.results) {
    const title = [inlineCode(`${r.path}:${r.startLine}-${r.endLine}`), ...(r.symbol ? [inlineCode(r.symbol)] : []), r.score.toFixed(3), ...(r.shown?.length ? [`shows ${shownRanges(r.shown)}`] : r.shown ? ['location only'] : []), ...(r.quotedPath ? [`quoted ${inlineCode(r.quotedPath)}`] : [])];
    const fence = '`'.repeat(Math.max(3, longestRun(r.text, '`') + 1));
    const body = r.text.endsWith('\n') ? r.text : `${r.text}\n`;
    out.push('', `### ${title.join(' · ')}`, '', `${fence}${infoString(r.language)}\n${body}${fence}`);
  }
  if (report.leftOut) out.push('', `${capitalized(leftOutNote(report.leftOut))}.`);
  if (report.partial) out.push('', `${capitalized(report.partial.notice)}.`);
  return out.join('\n') + '\n';
}

/** Inline code that survives backticks in the value (CommonMark: a longer delimiter, padded when needed). */
export function inlineCode(value: string): string {
  const ticks = '`'.repeat(longestRun(value, '`') + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${value.replace(/\n/g, ' ')}${pad}${ticks}`;
}

export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A fence's info string names the language for highlighting; anything unusual is left out rather than escaped. */
function infoString(language: string): string {
  return /^[\w+#.-]+$/.test(language) && language !== 'text' ? language : '';
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
