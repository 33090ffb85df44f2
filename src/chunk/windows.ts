import type { SourceLines } from './lines.js';

/** A planned chunk: 1-based inclusive line range plus its symbol breadcrumb. */
export interface Span {
  start: number;
  end: number;
  symbols: string[];
}

/**
 * Overlapping windows of `size` lines over start..end, each trimmed of blank edge lines.
 * Used for files without a grammar and for definitions too long to keep whole.
 */
export function slidingWindows(
  lines: SourceLines, start: number, end: number, size: number, overlap: number, symbols: string[],
): Span[] {
  const spans: Span[] = [];
  const step = Math.max(1, size - overlap);
  for (let windowStart = start; windowStart <= end; windowStart += step) {
    const windowEnd = Math.min(end, windowStart + size - 1);
    const trimmed = lines.trimRange(windowStart, windowEnd);
    if (trimmed) spans.push({ start: trimmed[0], end: trimmed[1], symbols });
    if (windowEnd >= end) break;
  }
  return spans;
}

/**
 * Non-overlapping pieces of at most maxLines lines over start..end (code between definitions).
 * Cuts late in each piece where a new statement plausibly begins (after a blank line or at the
 * region's outermost indentation) so that statements are split as rarely as possible.
 */
export function splitAtBoundaries(
  lines: SourceLines, start: number, end: number, maxLines: number, symbols: string[],
): Span[] {
  const spans: Span[] = [];
  const outerIndent = minimumIndent(lines, start, end);
  let pieceStart = start;
  while (pieceStart <= end) {
    const trimmed = lines.trimRange(pieceStart, end);
    if (!trimmed) break;
    pieceStart = trimmed[0];
    const pieceEnd = trimmed[1];
    if (pieceEnd - pieceStart + 1 <= maxLines) {
      spans.push({ start: pieceStart, end: pieceEnd, symbols });
      break;
    }
    const cut = bestCut(lines, pieceStart, pieceStart + maxLines - 1, outerIndent);
    const piece = lines.trimRange(pieceStart, cut);
    if (piece) spans.push({ start: piece[0], end: piece[1], symbols });
    pieceStart = cut + 1;
  }
  return spans;
}

const CLOSER = /^\s*[)\]}]/;

/** Last line of the piece starting at `start`, no later than `limit`. */
function bestCut(lines: SourceLines, start: number, limit: number, outerIndent: number): number {
  const earliest = start + Math.floor((limit - start) / 2);
  for (let cut = limit; cut > earliest; cut--) {
    const next = cut + 1;
    if (lines.isBlank(next) || CLOSER.test(lines.lines[next - 1]!)) continue;
    if (lines.isBlank(cut) || lines.indentOf(next) <= outerIndent) return cut;
  }
  return limit;
}

function minimumIndent(lines: SourceLines, start: number, end: number): number {
  let minimum = Infinity;
  for (let line = start; line <= end; line++) {
    if (!lines.isBlank(line)) minimum = Math.min(minimum, lines.indentOf(line));
  }
  return minimum === Infinity ? 0 : minimum;
}
