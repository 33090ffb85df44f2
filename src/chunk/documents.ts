import type { SourceLines } from './lines.js';
import type { Chunk, ChunkOptions } from './types.js';
import { htmlChunks } from './html.js';
import { isProsePath, proseChunks } from './prose.js';
import { splitAtBoundaries, type Span } from './windows.js';
import { DOCUMENT_REVISIONS } from './revisions.js';

/**
 * Documents are cut where their authors cut them: Markdown, reStructuredText and AsciiDoc at headings, each
 * section with the path of headings above it as its breadcrumb (`# Install > ## Offline mode`), so a result says
 * where in the document it is; tables (CSV, TSV) in runs of rows that each carry the header row, so a value is
 * never read without its column names. A line window cut these mid-section and lost the header after the first.
 * HTML is read as the text it shows (html.ts), plain text by paragraphs (prose.ts).
 *
 * Revisions (revisions.ts): raising one re-chunks (and, for changed text, re-embeds) the files of that format only.
 * html and text are 2 since HTML is read as text and plain text by paragraphs (both were line windows, `lines`,
 * before); files of language "text" that keep windows (an unknown extension) get the same windows under the new id.
 * pdf is 3 since a PDF is told by a real header (`%PDF-1.x` first, pdf.ts), not by `%PDF-` anywhere in the first
 * KiB: the marks the PDF reader gave under 2 are dropped with the revision (index/chunker-upgrade.ts), so code it
 * refused is read. html is 3 since text that begins with a broken tag (`<` alone) starts on its own line, not at
 * line 0, which every store read refuses.
 */

/** Rows per table chunk: ~40 rows of a typical export (~60 characters each) keep a chunk near 2,500 characters. */
const TABLE_ROWS = 40;
/** A table row longer than this is cut (as SourceLines cuts long lines); the header shares the limit. */
const MAX_HEADER_CHARS = 1000;

export function isDocumentLanguage(language: string): boolean {
  return Object.hasOwn(DOCUMENT_REVISIONS, language);
}

/** Chunks of a document, or null when its format has no structure to follow here (the caller cuts windows). */
export function documentChunks(language: string, lines: SourceLines, settings: ChunkOptions, path: string): Chunk[] | null {
  if (language === 'csv' || language === 'tsv') return tableChunks(language, lines);
  if (language === 'html') return htmlChunks(lines.lines.join('\n'));
  // Text of an unknown extension (`.log`, `.conf.sample`…) is anyone's guess: it keeps line windows.
  if (language === 'text') return isProsePath(path) ? proseChunks(lines, settings.windowLines) : null;
  const headings = language === 'markdown' ? markdownHeadings(lines.lines) : language === 'asciidoc' ? asciidocHeadings(lines.lines) : rstHeadings(lines.lines);
  if (headings.length === 0) return null;
  return sectionSpans(lines, headings, settings).map((span) => ({
    startLine: span.start,
    endLine: span.end,
    language,
    symbols: [...span.symbols],
    text: lines.textOf(span.start, span.end),
  }));
}

/** A heading: its 1-based line (the title's line; an underline follows it), depth 1 = top, and title. */
interface Heading {
  line: number;
  /** Lines the heading takes (2 for an underlined title, 3 with an overline). */
  height: number;
  depth: number;
  title: string;
}

/** Spans from the start of each section to the line before the next heading; long sections split at blank lines. */
function sectionSpans(lines: SourceLines, headings: Heading[], settings: ChunkOptions): Span[] {
  const spans: Span[] = [];
  const trail: Heading[] = [];
  const first = headings[0]!.line;
  if (first > 1) pushSection(spans, lines, 1, first - 1, [], settings);
  for (let i = 0; i < headings.length; i++) {
    const h = headings[i]!;
    while (trail.length && trail[trail.length - 1]!.depth >= h.depth) trail.pop();
    trail.push(h);
    const end = (headings[i + 1]?.line ?? lines.count + 1) - 1;
    // A heading with nothing under it but deeper headings opens their sections: its title is in their breadcrumb.
    const body = lines.trimRange(h.line + h.height, end);
    const next = headings[i + 1];
    if (!body && next && next.depth > h.depth) continue;
    const start = spans.length && !body ? h.line : sectionStart(headings, i, trail);
    pushSection(spans, lines, start, end, trail.map(label), settings);
  }
  return spans;
}

/** Where a section's span starts: at its own heading, or at the first of the empty parent headings just above it. */
function sectionStart(headings: Heading[], i: number, trail: Heading[]): number {
  let start = headings[i]!.line;
  for (let j = i - 1; j >= 0 && trail.includes(headings[j]!) && headings[j]!.line + headings[j]!.height === start; j--) start = headings[j]!.line;
  return start;
}

function pushSection(spans: Span[], lines: SourceLines, start: number, end: number, symbols: string[], settings: ChunkOptions): void {
  const trimmed = lines.trimRange(start, end);
  if (!trimmed) return;
  if (trimmed[1] - trimmed[0] + 1 <= settings.maxLines) spans.push({ start: trimmed[0], end: trimmed[1], symbols });
  else spans.push(...splitAtBoundaries(lines, trimmed[0], trimmed[1], settings.maxLines, symbols));
}

/** `# Install`, `## Offline mode`: the depth written as Markdown writes it, so a breadcrumb reads as the outline. */
function label(h: Heading): string {
  return `${'#'.repeat(h.depth)} ${h.title}`;
}

/** Inline markup a reader does not see: `code`, **bold**, [text](url), trailing #'s. */
function plainTitle(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:\s+(.*))?$/;
const SETEXT = /^ {0,3}(=+|-{2,})\s*$/;
const LIST_OR_QUOTE = /^\s*([-*+>]|\d+[.)])\s/;

export function markdownHeadings(text: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  // YAML front matter (`---` … `---` on the first lines) holds no headings.
  const frontMatterEnd = text[0]?.trim() === '---' ? text.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l)) : -1;
  /** The paragraph a setext underline makes a heading must be one line: after a blank line, a heading or the start. */
  let paragraphStart = true;
  for (let i = frontMatterEnd + 1; i < text.length; i++) {
    const line = text[i]!;
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(3);
      else if (line.trim().startsWith(fence)) fence = null;
      paragraphStart = true;
      continue;
    }
    if (fence) continue;
    const atx = ATX.exec(line);
    if (atx) {
      const title = plainTitle(atx[2] ?? '');
      if (title) out.push({ line: i + 1, height: 1, depth: atx[1]!.length, title });
      paragraphStart = true;
      continue;
    }
    const under = SETEXT.exec(text[i + 1] ?? '');
    // `---` under a one-line paragraph is a heading; under a list item, or after a blank line, it is a rule.
    if (under && paragraphStart && line.trim() && !LIST_OR_QUOTE.test(line)) {
      out.push({ line: i + 1, height: 2, depth: under[1]![0] === '=' ? 1 : 2, title: plainTitle(line) });
      i++;
      paragraphStart = true;
      continue;
    }
    paragraphStart = !line.trim();
  }
  return out;
}

const ADOC_HEADING = /^(={1,6})\s+(\S.*)$/;
const ADOC_BLOCK = /^(-{4,}|\.{4,}|={4,}|\+{4,}|\*{4,}|_{4,}|\/{4,})\s*$/;

export function asciidocHeadings(text: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let block: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const line = text[i]!;
    if (ADOC_BLOCK.test(line)) {
      block = block === null ? line.trim() : block === line.trim() ? null : block;
      continue;
    }
    if (block) continue;
    const m = ADOC_HEADING.exec(line);
    if (m) out.push({ line: i + 1, height: 1, depth: m[1]!.length, title: plainTitle(m[2]!) });
  }
  return out;
}

/** An RST adornment: one punctuation character repeated, at least as long as the title (here: 3 or more). */
const RST_ADORNMENT = /^([!-/:-@[-`{-~])\1{2,}\s*$/;

/** reStructuredText titles: levels are not fixed by character but by the order styles first appear in the file. */
export function rstHeadings(text: readonly string[]): Heading[] {
  const out: Heading[] = [];
  const styles: string[] = [];
  let literal = false;
  for (let i = 0; i < text.length; i++) {
    const line = text[i]!;
    if (literal && line.trim() && !/^\s/.test(line)) literal = false;
    if (line.trimEnd().endsWith('::')) literal = true;
    if (literal || !line.trim() || /^\s/.test(line)) continue;
    const over = RST_ADORNMENT.test(line) ? line[0]! : '';
    const title = over ? text[i + 1] : line;
    const underLine = text[over ? i + 2 : i + 1] ?? '';
    if (!title?.trim() || RST_ADORNMENT.test(title) || !RST_ADORNMENT.test(underLine) || underLine.trimEnd().length < title.trim().length) continue;
    if (over && underLine[0] !== over) continue;
    const style = `${over}${underLine[0]}`;
    if (!styles.includes(style)) styles.push(style);
    out.push({ line: i + 1, height: over ? 3 : 2, depth: Math.min(6, styles.indexOf(style) + 1), title: plainTitle(title) });
    i += over ? 2 : 1;
  }
  return out;
}

/**
 * Runs of TABLE_ROWS rows after the header row, each chunk's text led by the header (the one place a chunk's text
 * holds a line outside its span: `startLine` is its first row). A table of the header alone is one chunk.
 */
function tableChunks(language: string, lines: SourceLines): Chunk[] {
  const all = lines.trimRange(1, lines.count);
  if (!all) return [];
  const [headerLine, last] = all;
  const header = lines.textOf(headerLine, headerLine).slice(0, MAX_HEADER_CHARS);
  const symbols = [`table ${columnsOf(header, language)}`];
  if (headerLine === last) return [{ startLine: headerLine, endLine: headerLine, language, symbols, text: header }];
  const out: Chunk[] = [];
  for (let start = headerLine + 1; start <= last; start += TABLE_ROWS) {
    const rows = lines.trimRange(start, Math.min(last, start + TABLE_ROWS - 1));
    if (!rows) continue;
    out.push({ startLine: rows[0], endLine: rows[1], language, symbols, text: `${header}\n${lines.textOf(rows[0], rows[1])}` });
  }
  return out;
}

/** The header's column names, for the breadcrumb: `table id, name, price`, at most ~120 characters. */
function columnsOf(header: string, language: string): string {
  const names = header.split(language === 'tsv' ? '\t' : ',').map((c) => c.trim().replace(/^"(.*)"$/, '$1')).filter(Boolean);
  const joined = names.join(', ');
  return joined.length > 120 ? `${joined.slice(0, 117)}...` : joined || 'rows';
}
