import { planSpans } from './assemble.js';
import { documentChunks, isDocumentLanguage } from './documents.js';
import { looksLikeHtml } from './html.js';
import { detectLanguage, detectLanguageFromShebang } from './languages.js';
import { SourceLines } from './lines.js';
import { grammarFailure, grammarFor } from './parser.js';
import { SFC_REVISIONS } from './revisions.js';
import { rulesFor } from './rules.js';
import { sfcSpans } from './sfc.js';
import { parseDefinitions } from './syntax.js';
import type { Chunk, ChunkOptions } from './types.js';
import { slidingWindows, type Span } from './windows.js';

export type { Chunk, ChunkOptions } from './types.js';
export { detectLanguage } from './languages.js';

// Kept in its own module: knowing the versions must not load the parsers (a search checks them on every run).
export { chunkerVersion, chunkerVersionOf } from './version.js';

export const DEFAULT_CHUNK_OPTIONS: Readonly<ChunkOptions> = Object.freeze({
  maxLines: 80,
  windowLines: 60,
  windowOverlap: 10,
  maxLineChars: 1000,
});

/** Beyond these sizes a syntax tree costs more than it tells; such files get line windows. */
const MAX_PARSE_CHARS = 1_000_000;
const MAX_PARSE_LINES = 20_000;
/** Mostly overlong lines and this big: minified or generated, a syntax tree would only cost time. */
const MINIFIED_MIN_CHARS = 64_000;
/** Generous on purpose: only pathological input may hit it, so output stays deterministic. */
const PARSE_BUDGET_MS = 5_000;

/**
 * Splits a file into chunks: one per definition (with its doc comments) where a grammar is
 * available, line windows otherwise. Sorted by startLine then endLine; covers every non-blank
 * line; [] for an empty or blank file. Never throws. Chunks have at most maxLines lines, plus up
 * to 3 when a lone closing line (`}`, `end`) joins its neighbour (windows: windowLines).
 */
export async function chunkFile(path: string, text: string, options: Partial<ChunkOptions> = {}): Promise<Chunk[]> {
  try {
    const settings = resolveOptions(options);
    const lines = new SourceLines(text, settings.maxLineChars);
    if (!lines.trimRange(1, lines.count)) return [];
    const language = fileLanguage(path, lines);
    if (isDocumentLanguage(language)) {
      const chunks = documentChunks(language, lines, settings, path);
      if (chunks) return chunks;
    }
    let spans: Span[];
    try {
      spans = Object.hasOwn(SFC_REVISIONS, language) ? (sfcSpans(lines, settings) ?? []) : await syntaxSpans(language, text, lines, settings);
    } catch {
      spans = [];
    }
    if (spans.length === 0) {
      spans = slidingWindows(lines, 1, lines.count, settings.windowLines, settings.windowOverlap, []);
    }
    return toChunks(spans, lines, language);
  } catch {
    return [];
  }
}

/**
 * Starts loading the grammars that chunking files at these paths (as their names tell) will need: their WebAssembly
 * compiles off this thread, so a run that has other work first (opening the store) does not wait for it at its
 * first file. Never throws; a grammar that cannot load is told as chunking would tell it.
 */
export function warmGrammars(paths: Iterable<string>): void {
  for (const path of paths) {
    const language = detectLanguage(path);
    // As chunkFile: documents and single-file components are cut without a grammar of their own.
    if (isDocumentLanguage(language) || Object.hasOwn(SFC_REVISIONS, language)) continue;
    const rules = rulesFor(language);
    if (rules) void grammarFor(rules);
  }
}

/** The language a file's chunks get: its name's, else (a file no name explains) its first line's: a `#!` names its interpreter, a doctype makes it HTML. */
export function fileLanguage(path: string, lines: SourceLines): string {
  const language = detectLanguage(path);
  if (language !== 'text') return language;
  return detectLanguageFromShebang(lines.lines[0]!) ?? (looksLikeHtml(lines.lines.slice(0, 5).join('\n')) ? 'html' : language);
}

/** Spans from the syntax tree, or [] when the language has no grammar or parsing is not worth it. */
async function syntaxSpans(language: string, text: string, lines: SourceLines, settings: ChunkOptions): Promise<Span[]> {
  const rules = rulesFor(language);
  const minified = lines.overlongChars > MINIFIED_MIN_CHARS && lines.overlongChars * 2 > text.length;
  if (!rules || minified || text.length > MAX_PARSE_CHARS || lines.count > MAX_PARSE_LINES) return [];
  const grammar = await grammarFor(rules);
  if (!grammar) return [];
  const definitions = parseDefinitions(grammar, rules, text, PARSE_BUDGET_MS);
  return definitions ? planSpans(lines, definitions, settings) : [];
}

/**
 * What to tell about these languages (the ones an index run chunked): one line for each whose grammar could not be
 * loaded in this process, so its files were cut into line windows. Their chunks carry the language's revision, so
 * only a rebuild re-chunks them once the grammar is back.
 */
export function grammarNotices(languages: Iterable<string>): string[] {
  const notices: string[] = [];
  for (const language of [...new Set(languages)].sort()) {
    const rules = rulesFor(language);
    const failure = rules ? grammarFailure(rules) : null;
    if (failure) notices.push(`the ${language} grammar could not be loaded (${failure}): its files were cut into line windows; reinstall ocrag, then run \`ocrag index --rebuild\``);
  }
  return notices;
}

function toChunks(spans: Span[], lines: SourceLines, language: string): Chunk[] {
  const ordered = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  return ordered.map((span) => ({
    startLine: span.start,
    endLine: span.end,
    language,
    symbols: [...span.symbols],
    text: lines.textOf(span.start, span.end),
  }));
}

function resolveOptions(options: Partial<ChunkOptions>): ChunkOptions {
  const pick = (value: number | undefined, fallback: number, minimum: number): number =>
    value !== undefined && Number.isFinite(value) ? Math.max(minimum, Math.floor(value)) : fallback;
  const windowLines = pick(options.windowLines, DEFAULT_CHUNK_OPTIONS.windowLines, 1);
  return {
    maxLines: pick(options.maxLines, DEFAULT_CHUNK_OPTIONS.maxLines, 1),
    windowLines,
    windowOverlap: Math.min(windowLines - 1, pick(options.windowOverlap, DEFAULT_CHUNK_OPTIONS.windowOverlap, 0)),
    maxLineChars: pick(options.maxLineChars, DEFAULT_CHUNK_OPTIONS.maxLineChars, 1),
  };
}
