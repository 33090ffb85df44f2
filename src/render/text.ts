import { numberedLines } from './lines.js';
import { leftOutNote, type SearchReport } from './report.js';

/** Colours for text output; the CLI makes them ANSI codes at a terminal, PLAIN leaves text as it is. */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  cyan(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  /** Text taken from the repository (paths, symbols, code), as this output may show it (terminal-text.ts at a terminal). */
  literal(s: string): string;
}

const SNIPPET_LINES = 8;

const same = (s: string) => s;
/** No colour: for measuring and for output that is not a terminal. */
export const PLAIN: Paint = { bold: same, dim: same, cyan: same, green: same, yellow: same, red: same, literal: same };

/**
 * For a person at a terminal: `path:start-end  symbol  score` (and `quoted "caf\351.py"`, the exact name, when the
 * path is not), then the first lines with line numbers.
 */
export function formatText(report: SearchReport, p: Paint): string {
  const out: string[] = [];
  for (const r of report.results) {
    out.push(`${p.cyan(`${p.literal(r.path)}:${r.startLine}-${r.endLine}`)}  ${r.symbol ? p.bold(p.literal(r.symbol)) + '  ' : ''}${p.dim(r.score.toFixed(3))}${r.quotedPath ? p.dim(`  quoted ${r.quotedPath}`) : ''}`);
    const lines = numberedLines(r);
    const width = String(Math.max(...lines.slice(0, SNIPPET_LINES).map((l) => l.line ?? 0))).length;
    for (const { line, text } of lines.slice(0, SNIPPET_LINES)) out.push(`${p.dim((line === null ? '' : String(line)).padStart(width) + ' │')} ${line === null ? p.dim(text) : p.literal(text)}`);
    if (lines.length > SNIPPET_LINES) out.push(p.dim(`${' '.repeat(width)} │ … ${lines.length - SNIPPET_LINES} more lines`));
    out.push('');
  }
  if (report.leftOut) out.push(p.dim(leftOutNote(report.leftOut)), '');
  return out.join('\n');
}
