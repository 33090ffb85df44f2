import type { ChunkInfo } from '../store/contract.js';

/**
 * Which of one blob's chunks are members: chunks lying inside another chunk of the blob whose breadcrumb they
 * extend (`class Engine > method retryWithBackoff` inside `class Engine`), as the chunker makes them for the
 * definitions nested in one it keeps whole (chunk/assemble.ts). Line windows overlap without lying inside each
 * other, and a split definition's pieces sit side by side, so neither is ever a member. Pure.
 */
export function memberIndices(info: readonly ChunkInfo[], blobChunks: readonly number[]): number[] {
  // Widest first among chunks starting on the same line, so a container always comes before what it holds.
  const order = [...blobChunks].sort((a, b) => info[a].startLine - info[b].startLine || info[b].endLine - info[a].endLine);
  const members: number[] = [];
  const open: number[] = [];
  for (const i of order) {
    const chunk = info[i];
    while (open.length && info[open[open.length - 1]].endLine < chunk.startLine) open.pop();
    if (open.some((o) => holds(info[o], chunk))) members.push(i);
    open.push(i);
  }
  return members;
}

function holds(outer: ChunkInfo, inner: ChunkInfo): boolean {
  const inside = outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
  const nested = outer.symbol !== '' && inner.symbol.startsWith(`${outer.symbol} > `);
  return inside && nested && (outer.startLine !== inner.startLine || outer.endLine !== inner.endLine);
}
