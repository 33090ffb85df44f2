import type { Chunk } from './types.js';

/**
 * HTML read as the text a browser shows: tags, scripts, styles and comments dropped, entities decoded, one line of
 * text per block (paragraph, list item, table row…). Headings `h1`…`h6` cut it into sections with the path of
 * headings above as the breadcrumb, written as Markdown's are (`# Guide > ## Install`), so a result reads the same
 * whichever format it came from. A chunk's lines are the source lines its text came from.
 */

/** Text lines per chunk, and characters: ~40 paragraphs or ~3,000 characters keep a chunk near a Markdown section's size. */
const MAX_LINES = 40;
const MAX_CHARS = 3_000;

/** Tags whose content is never shown as text. */
const HIDDEN = 'script|style|noscript|template|svg|head';
/** Tags that end a line of text (blocks, breaks, cells). */
const BLOCK = new Set(
  'address article aside blockquote br dd details dialog div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead title tr ul caption'.split(' '),
);
const TOKEN = new RegExp(`<!--[\\s\\S]*?(?:-->|$)|<(${HIDDEN})\\b[^>]*>[\\s\\S]*?(?:</\\1\\s*>|$)|<(/?)([a-zA-Z][\\w-]*)\\b(?:[^>"']|"[^"]*"|'[^']*')*>|<[!?][^>]*>|[^<]+|<`, 'gi');

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', reg: '®', trade: '™', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·', bull: '•', times: '×', deg: '°', euro: '€' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[\da-f]{1,6}|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** A line of shown text: the source lines it came from, and, for a heading, its depth. */
interface TextLine {
  start: number;
  end: number;
  text: string;
  depth?: number;
}

/** The text a page shows, line by line with where each came from. */
export function htmlText(source: string): TextLine[] {
  const out: TextLine[] = [];
  let line = 1;
  let pending = '';
  let start = 0;
  let heading: number | undefined;
  let pre = 0;
  const flush = (end: number) => {
    const text = decodeEntities(pending).replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim();
    // A text that began with a lone "<" (a broken tag) set no start: it starts where it ends, never at line 0.
    if (text) out.push({ start: start || end, end, text, ...(heading ? { depth: heading } : {}) });
    pending = '';
    start = 0;
  };
  for (const m of source.matchAll(TOKEN)) {
    const token = m[0];
    const name = m[3]?.toLowerCase();
    if (name && BLOCK.has(name)) {
      flush(line);
      const depth = /^h[1-6]$/.test(name) ? Number(name[1]) : undefined;
      if (m[2]) heading = depth === heading ? undefined : heading;
      else if (depth) heading = depth;
      if (name === 'pre') pre += m[2] ? -1 : 1;
    } else if (!m[1] && !name && token[0] !== '<') {
      // Text: in <pre> its line breaks are lines; elsewhere they are spaces.
      const parts = pre > 0 ? token.split('\n') : [token.replace(/\s+/g, ' ')];
      parts.forEach((part, i) => {
        if (i > 0) flush(line + i - 1);
        if (!start && part.trim()) start = line + (pre > 0 ? i : leadingNewlines(token));
        pending += part;
      });
    } else if (token === '<') {
      if (!start) start = line;
      pending += '<';
    }
    line += count(token, '\n');
  }
  flush(line);
  return out;
}

/**
 * Template syntax (Jinja, Django, Handlebars, Angular, Vue, ERB, JSP): such a file is code a developer edits, and its
 * markup is what they look for, so it keeps line windows (the caller's, on null).
 */
const TEMPLATE = /\{\{|\{%|\{#|<%/;

/** Sections at headings, each packed into chunks of at most MAX_LINES lines and MAX_CHARS characters; null for a template. */
export function htmlChunks(source: string): Chunk[] | null {
  if (TEMPLATE.test(source)) return null;
  const trail: { depth: number; label: string }[] = [];
  const chunks: Chunk[] = [];
  let run: TextLine[] = [];
  let chars = 0;
  const emit = () => {
    if (run.length === 0) return;
    chunks.push({ startLine: run[0]!.start, endLine: Math.max(...run.map((l) => l.end)), language: 'html', symbols: trail.map((t) => t.label), text: run.map((l) => l.text).join('\n') });
    run = [];
    chars = 0;
  };
  for (const l of htmlText(source)) {
    if (l.depth) {
      emit();
      while (trail.length && trail[trail.length - 1]!.depth >= l.depth) trail.pop();
      trail.push({ depth: l.depth, label: `${'#'.repeat(l.depth)} ${l.text.slice(0, 120)}` });
    } else if (run.length >= MAX_LINES || (run.length && chars + l.text.length > MAX_CHARS)) emit();
    run.push(l);
    chars += l.text.length + 1;
  }
  emit();
  return chunks;
}

/** Whether text that no extension names is HTML: it opens with a doctype or an `<html>` tag. */
export function looksLikeHtml(firstLine: string): boolean {
  return /^\s*(<!--[\s\S]*?-->\s*)?<(!doctype\s+html|html[\s>])/i.test(firstLine);
}

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

function leadingNewlines(text: string): number {
  return count(text.slice(0, text.length - text.trimStart().length), '\n');
}
