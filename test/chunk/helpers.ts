import assert from 'node:assert/strict';
import type { Chunk } from '../../src/chunk/index.js';

/** The file's lines as chunks must see them (CR stripped). */
export function sourceLines(text: string): string[] {
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** 1-based number of the only line containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const lines = sourceLines(text);
  const found = lines.flatMap((line, index) => (line.includes(needle) ? [index + 1] : []));
  assert.equal(found.length, 1, `expected exactly one line containing ${JSON.stringify(needle)}, found ${found.length}`);
  return found[0]!;
}

/** The chunk with exactly these symbols (there must be one). */
export function chunkWith(chunks: Chunk[], ...symbols: string[]): Chunk {
  const matching = chunks.filter((chunk) => chunk.symbols.join(' / ') === symbols.join(' / '));
  assert.equal(matching.length, 1, `expected one chunk for ${symbols.join(' / ')}; got:\n${describe(chunks)}`);
  return matching[0]!;
}

export function describe(chunks: Chunk[]): string {
  return chunks.map((c) => `  ${c.startLine}-${c.endLine} ${JSON.stringify(c.symbols)}`).join('\n');
}

/**
 * The invariants every chunk list must satisfy: text is exactly its lines, no blank-only
 * chunk, sorted, within the file, and every non-blank line of the file is covered.
 */
export function assertWellFormed(text: string, chunks: Chunk[], maxLineChars = 1000): void {
  const lines = sourceLines(text).map((line) => line.slice(0, maxLineChars));
  const covered = new Uint8Array(lines.length + 1);
  let previous: Chunk | undefined;
  for (const chunk of chunks) {
    assert.ok(chunk.startLine >= 1 && chunk.endLine <= lines.length && chunk.startLine <= chunk.endLine,
      `bad range ${chunk.startLine}-${chunk.endLine}`);
    assert.equal(chunk.text, lines.slice(chunk.startLine - 1, chunk.endLine).join('\n'),
      `text of ${chunk.startLine}-${chunk.endLine} is not its lines`);
    assert.notEqual(chunk.text.trim(), '', `blank chunk ${chunk.startLine}-${chunk.endLine}`);
    if (previous) {
      const ordered = previous.startLine < chunk.startLine
        || (previous.startLine === chunk.startLine && previous.endLine <= chunk.endLine);
      assert.ok(ordered, `chunks out of order at ${chunk.startLine}`);
    }
    covered.fill(1, chunk.startLine, chunk.endLine + 1);
    previous = chunk;
  }
  lines.forEach((line, index) => {
    if (line.trim() !== '') assert.equal(covered[index + 1], 1, `line ${index + 1} not covered: ${line.slice(0, 80)}`);
  });
}

/** maxLines, plus the 3 lines a lone closing `}`/`end` may add when it joins its neighbour. */
export function assertMaxLines(chunks: Chunk[], maxLines: number): void {
  for (const chunk of chunks) {
    assert.ok(chunk.endLine - chunk.startLine + 1 <= maxLines + 3,
      `chunk ${chunk.startLine}-${chunk.endLine} ${JSON.stringify(chunk.symbols)} exceeds ${maxLines} lines`);
  }
}
