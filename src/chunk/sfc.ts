import { SourceLines } from './lines.js';
import { componentName, scriptLanguage, sfcBlocks, type SfcBlock } from './sfc-blocks.js';
import type { ChunkOptions } from './types.js';
import { slidingWindows, type Span } from './windows.js';

/**
 * A single-file component (`.vue`, `.svelte`) cut by its blocks: a script by the grammar of its `lang`, with the
 * rules of a `.ts`/`.js` file (its definitions, members and breadcrumbs), a template as markup along its top-level
 * elements, a style along its rules. Line windows across the whole file cut a method from its name, and a form
 * from the script that handles it, half the time. Every chunk is the file's own lines; every non-blank line is in
 * one. When the component names itself (`name: 'UserList'`, `defineOptions`), every chunk's breadcrumb starts with
 * `component UserList`, so a chunk of its template still says whose it is.
 */

/** Spans of a script's text by its grammar ([] when it has none, or parsing is not worth it): chunk/index.ts's. */
export type ScriptSpans = (language: string, text: string, lines: SourceLines) => Promise<Span[]>;

/** Kind of the breadcrumb element a component's name is written as (`component UserList`). */
const COMPONENT = 'component';

/** The spans of a component, or null when its blocks cannot be told (unclosed, none at all): the caller cuts windows. */
export async function sfcSpans(lines: SourceLines, settings: ChunkOptions, scriptSpans: ScriptSpans): Promise<Span[] | null> {
  const text = lines.lines.join('\n');
  const blocks = sfcBlocks(text);
  if (!blocks) return null;
  const scripts = blocks.filter((b) => b.tag === 'script');
  const name = scripts.map((b) => componentName(text.slice(b.contentStart, b.contentEnd))).find(Boolean);
  const symbols = name ? [`${COMPONENT} ${name}`] : [];
  const spans: Span[] = [];
  let cursor = 1;
  for (const block of blocks) {
    // Between blocks: comments, custom blocks (`<i18n>`), and all of a Svelte component's markup.
    if (block.openLine > cursor) spans.push(...markupSpans(lines, cursor, block.openLine - 1, settings, symbols));
    const start = Math.max(cursor, block.openLine);
    if (block.tag === 'script') spans.push(...(await scriptBlockSpans(lines, text, block, start, settings, symbols, scriptSpans)));
    else if (block.tag === 'template') spans.push(...markupSpans(lines, start, block.closeLine, settings, symbols));
    else spans.push(...styleSpans(lines, start, block.closeLine, settings, symbols));
    cursor = block.closeLine + 1;
  }
  if (cursor <= lines.count) spans.push(...markupSpans(lines, cursor, lines.count, settings, symbols));
  return spans;
}

/**
 * A script parsed on its own: the text the grammar sees is the block's content on its own lines, every other line
 * blank, so the spans it plans are the file's lines. The tag lines join the first and the last chunk.
 */
async function scriptBlockSpans(
  lines: SourceLines, text: string, block: SfcBlock, start: number, settings: ChunkOptions, outer: string[], scriptSpans: ScriptSpans,
): Promise<Span[]> {
  const end = block.closeLine;
  const language = scriptLanguage(block.attrs);
  const lineStart = text.lastIndexOf('\n', block.contentStart - 1) + 1;
  const content = '\n'.repeat(block.openLine - 1) + ' '.repeat(block.contentStart - lineStart) + text.slice(block.contentStart, block.contentEnd);
  let spans: Span[] = [];
  if (language) {
    try {
      spans = await scriptSpans(language, content, new SourceLines(content, settings.maxLineChars));
    } catch {
      spans = [];
    }
  }
  spans = spans.filter((s) => s.start >= start && s.end <= end).map((s) => ({ ...s, symbols: [...outer, ...s.symbols] }));
  if (spans.length === 0) return slidingWindows(lines, start, end, settings.windowLines, settings.windowOverlap, outer);
  const tops = spans.filter((s) => !spans.some((o) => o !== s && o.start <= s.start && s.end <= o.end && (o.start < s.start || o.end > s.end)));
  const first = tops.reduce((a, s) => (s.start < a.start ? s : a));
  const last = tops.reduce((a, s) => (s.end > a.end ? s : a));
  const head = lines.trimRange(start, first.start - 1);
  const tail = lines.trimRange(last.end + 1, end);
  if (head) first.start = head[0];
  if (tail) last.end = tail[1];
  return spans;
}

/**
 * Markup along its elements: a part that fits is one chunk; a longer one is cut before the shallowest element that
 * opens in the second half of each piece, so a piece ends where a form, a table or a dialog of the page ends
 * rather than at a line count.
 */
function markupSpans(lines: SourceLines, start: number, end: number, settings: ChunkOptions, symbols: string[]): Span[] {
  return cutAtShallowest(lines, start, end, settings.maxLines, symbols, (line) => ELEMENT_START.test(lines.lines[line - 1]!));
}

/** A style block along its rules: cut before the shallowest rule that begins in the second half of each piece. */
function styleSpans(lines: SourceLines, start: number, end: number, settings: ChunkOptions, symbols: string[]): Span[] {
  const startsRule = (line: number) => !CLOSER.test(lines.lines[line - 1]!) && (lines.isBlank(line - 1) || /[}/]\s*$/.test(lines.lines[line - 2]!));
  return cutAtShallowest(lines, start, end, settings.maxLines, symbols, startsRule);
}

/** `<div`, `<!--`, Svelte's `{#if`: where an element or block begins. */
const ELEMENT_START = /^\s*(<[A-Za-z!]|\{[#@])/;
const CLOSER = /^\s*[)\]}]/;

/** Pieces of at most maxLines, each cut before the least indented line `starts` allows late in it (or at the limit). */
function cutAtShallowest(lines: SourceLines, start: number, end: number, maxLines: number, symbols: string[], starts: (line: number) => boolean): Span[] {
  const spans: Span[] = [];
  for (let range = lines.trimRange(start, end); range; ) {
    const [from, to] = range;
    if (to - from + 1 <= maxLines) {
      spans.push({ start: from, end: to, symbols });
      break;
    }
    let next = from + maxLines;
    let indent = Infinity;
    for (let line = from + maxLines; line > from + Math.floor(maxLines / 2); line--) {
      if (lines.isBlank(line) || !starts(line) || lines.indentOf(line) >= indent) continue;
      next = line;
      indent = lines.indentOf(line);
    }
    const piece = lines.trimRange(from, next - 1);
    if (piece) spans.push({ start: piece[0], end: piece[1], symbols });
    range = lines.trimRange(next, to);
  }
  return spans;
}
