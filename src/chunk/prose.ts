import type { SourceLines } from './lines.js';
import type { Chunk } from './types.js';
import { splitAtBoundaries, type Span } from './windows.js';

/**
 * Plain text (`.txt`, and files without an extension: README, NOTES, LICENSE) by paragraphs: blank-line separated
 * paragraphs packed whole into chunks of up to `windowLines` lines (60, a line window's size), a longer paragraph
 * split at its own lines. No overlap: a paragraph is one thought, and a window's 10 shared lines only repeat it.
 * The breadcrumb is the section's title, the last one-line paragraph short enough to be one (a heading typed as a
 * line of its own, `Backup policy`), else the chunk's first line.
 */

/** A one-line paragraph this short, not ending like a sentence, reads as a title: ~a Markdown heading's length. */
const MAX_TITLE_CHARS = 80;

/** `.txt` or no extension at all: what people write notes in. Other unknown extensions stay line windows. */
export function isProsePath(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 || base.slice(dot + 1).toLowerCase() === 'txt';
}

export function proseChunks(lines: SourceLines, maxLines: number): Chunk[] {
  const spans: Span[] = [];
  let run: [number, number] | null = null;
  let title = '';
  const emit = () => {
    if (run) spans.push({ start: run[0], end: run[1], symbols: [title || firstLine(lines, run[0])] });
    run = null;
  };
  for (const [start, end] of paragraphs(lines)) {
    const titleLine = start === end ? titleOf(lines.lines[start - 1]!) : '';
    if (titleLine) {
      emit();
      title = titleLine;
    }
    if (end - start + 1 > maxLines) {
      // A long paragraph is cut at its lines, with what the run holds so far (its title, say) leading the first piece.
      const from: number = run ? run[0] : start;
      run = null;
      spans.push(...splitAtBoundaries(lines, from, end, maxLines, [title || firstLine(lines, from)]));
      continue;
    }
    if (run && end - run[0] + 1 > maxLines) emit();
    run = run ? [run[0], end] : [start, end];
  }
  emit();
  return spans.map((s) => ({ startLine: s.start, endLine: s.end, language: 'text', symbols: s.symbols, text: lines.textOf(s.start, s.end) }));
}

/** Runs of non-blank lines, as [first, last] (1-based). */
function paragraphs(lines: SourceLines): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let n = 1; n <= lines.count + 1; n++) {
    const blank = n > lines.count || lines.isBlank(n);
    if (!blank && !start) start = n;
    if (blank && start) {
      out.push([start, n - 1]);
      start = 0;
    }
  }
  return out;
}

function titleOf(line: string): string {
  const text = line.trim();
  return text.length <= MAX_TITLE_CHARS && !/[.,;:!?]$/.test(text) ? text : '';
}

function firstLine(lines: SourceLines, n: number): string {
  const text = lines.lines[n - 1]!.trim();
  return text.length > MAX_TITLE_CHARS ? `${text.slice(0, MAX_TITLE_CHARS - 3)}...` : text;
}
