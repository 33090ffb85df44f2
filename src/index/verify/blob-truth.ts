import { fileLanguage, type Chunk } from '../../chunk/index.js';
import { SourceLines } from '../../chunk/lines.js';
import { isProsePath } from '../../chunk/prose.js';
import { GIVEN_NAMES } from '../../chunk/define-rules.js';
import { rulesFor } from '../../chunk/rules.js';
import type { MarkReason } from '../../store/blob-state.js';
import { formatBreadcrumb } from '../../text/breadcrumb.js';
import { chunksOfBlob } from '../blob-chunks.js';
import { shownPath } from '../../git/path-key.js';
import { classifyContent } from '../select.js';
import { legacyChineseText } from '../../text/legacy-encoding.js';

/** Cuts a blob as an index run does (index/blob-chunks.ts). */
export type BlobCut = typeof chunksOfBlob;

/** What `uncutProblem` says when only cutting the blob again can tell whether a row is right. */
export const CUT_TELLS = Symbol('the cut tells');

/** What a row claims of its blob: where it is, what it is and says. */
export interface RowClaim {
  startLine: number;
  endLine: number;
  language: string;
  symbol: string;
  text: string;
}

/** Said of a row whose text `misreadByOlder` explains: not forged, made by an older ocrag. */
const MISREAD_GBK = 'has the text an older ocrag read from this GBK (Chinese) file as UTF-8: make it again with this ocrag version';

/**
 * What the local git object database says a blob is, read the way an index run reads it (select.ts decodes it,
 * chunk/ cuts it, with this index's `maxLineChars`), for each way its paths name it: the language a path gives
 * (a blob at `a.py` and `a.txt` is cut two ways) and, for plain text, whether it is prose. Rows are held to it.
 */
export class BlobTruth {
  /** The blob's text as decoded, and its lines as chunks see them; null when it is no text (a PDF, or skipped). */
  private readonly text: string | null;
  private readonly lines: SourceLines | null;
  /** Each way the blob is cut, by the first path that cuts it so: language → path. */
  private readonly variants = new Map<string, string>();
  private readonly cuts = new Map<string, Promise<Map<string, Chunk> | MarkReason>>();
  /** Why the blob yields no chunks at all (binary, minified…), or null. */
  readonly skipped: MarkReason | null;

  constructor(
    private readonly bytes: Buffer,
    paths: readonly string[],
    private readonly maxLineChars: number,
    /** How the blob is cut again: here, or the same code on another thread (aside-worker.ts). */
    private readonly cut: BlobCut = chunksOfBlob,
  ) {
    const content = classifyContent(bytes, maxLineChars);
    this.skipped = 'reason' in content ? content.reason : null;
    this.text = 'text' in content ? content.text : null;
    this.lines = this.text === null ? null : new SourceLines(this.text, maxLineChars);
    for (const path of paths) {
      // Indexing names a file to the chunker as people read it (index/blob-chunks.ts): `caf\ufffd.py` is Python.
      const named = shownPath(path);
      const language = 'pdf' in content ? 'pdf' : this.lines ? fileLanguage(named, this.lines) : null;
      if (language === null) break;
      // Plain text is prose or line windows by its name (prose.ts): both ways are kept apart.
      const variant = language === 'text' && isProsePath(named) ? 'text prose' : language;
      if (!this.variants.has(variant)) this.variants.set(variant, path);
    }
  }

  /** Bytes held, for a bounded cache. */
  get size(): number {
    return this.bytes.length * 3;
  }

  /** The paths cutting the blob as `language` (asked for each of its rows). */
  private pathsFor(language: string): string[] {
    let paths = this.pathsByLanguage.get(language);
    if (!paths) this.pathsByLanguage.set(language, (paths = [...this.variants].filter(([v]) => v === language || v === `${language} prose`).map(([, path]) => path)));
    return paths;
  }

  private readonly pathsByLanguage = new Map<string, string[]>();

  /**
   * What is wrong with a row of this blob, or null. The text of a row of a language cut along syntax is checked
   * against the blob's lines (the chunker's text is exactly them); `whole` cuts the blob again and holds the row
   * to a chunk of it, span, breadcrumb and text, as every row of the other languages is (documents, tables, line
   * windows: cheap to cut, and their text is not always the lines: a table's rows carry its header).
   */
  async problem(row: RowClaim, whole: boolean): Promise<string | null> {
    const quick = this.uncutProblem(row, whole);
    return quick === CUT_TELLS ? this.cutProblem(row) : quick;
  }

  /** What `problem` finds without cutting the blob, or CUT_TELLS when only its cut can tell. */
  uncutProblem(row: RowClaim, whole: boolean): string | null | typeof CUT_TELLS {
    if (this.skipped) return `belongs to a blob this ocrag does not index (${this.skipped})`;
    if (this.pathsFor(row.language).length === 0) return `says its language is ${JSON.stringify(row.language.slice(0, 40))}, which no path of its blob gives (${[...this.variants.keys()].join(', ')})`;
    if (this.lines && rulesFor(row.language)) {
      if (row.endLine > this.lines.count) return `ends at line ${row.endLine}, past the blob's ${this.lines.count} lines`;
      if (!this.textIs(row.startLine, row.endLine, row.text)) return this.misreadByOlder(row.text) ? MISREAD_GBK : `has a text that is not lines ${row.startLine}-${row.endLine} of its blob`;
      if (!whole) return this.breadcrumbWordsProblem(row);
    }
    return CUT_TELLS;
  }

  /** The row held to a chunk of the blob cut again (span, breadcrumb and text), once `uncutProblem` left it to the cut. */
  async cutProblem(row: RowClaim): Promise<string | null> {
    let found: Chunk | undefined;
    for (const path of this.pathsFor(row.language)) {
      const chunks = await this.chunksAt(path);
      found = typeof chunks === 'string' ? undefined : chunks.get(spanKey(row.startLine, row.endLine));
      if (found && formatBreadcrumb(found.symbols) === row.symbol && found.text === row.text) return null;
    }
    if (!found) return `is no chunk this ocrag cuts from its blob (lines ${row.startLine}-${row.endLine})`;
    if (found.text === row.text) return `has a breadcrumb that is not the one this ocrag's chunker gives lines ${row.startLine}-${row.endLine}`;
    return this.misreadByOlder(row.text) ? MISREAD_GBK : `has a text that is not what this ocrag's chunker gives lines ${row.startLine}-${row.endLine}`;
  }

  /** A row an ocrag from before GBK was read as Chinese made: the text has U+FFFD where this blob has Chinese. */
  private misreadByOlder(text: string): boolean {
    return text.includes('\uFFFD') && legacyChineseText(this.bytes) !== null;
  }

  /** Whether `text` is lines start..end joined by newlines, as the chunker's text is (compared in place). */
  private textIs(start: number, end: number, text: string): boolean {
    const lines = this.lines!.lines;
    let at = 0;
    for (let n = start; n <= end; n++) {
      const line = lines[n - 1]!;
      if (!text.startsWith(line, at)) return false;
      at += line.length;
      if (n < end && text.charCodeAt(at++) !== 10) return false;
    }
    return at === text.length;
  }

  /**
   * The bound every breadcrumb of a blob not cut again is held to: the chunker names definitions with their own
   * source text (`function check_password`, `impl Service for Router`, `class Session > method expired`), so
   * past each label's kind (one lower-case word) every word must be in the blob, or a name the chunker gives what
   * has none (GIVEN_NAMES). A breadcrumb carrying words of its own, an instruction to an agent, is refused without
   * parsing: 0 of 90,550 breadcrumbs the chunker made of 5,782 files (Python, Go, C, C++, C#, shell, JS, TS, Rust)
   * and the chunk tests' samples of every other grammar.
   */
  private breadcrumbWordsProblem(row: RowClaim): string | null {
    for (const label of row.symbol ? row.symbol.split(' > ') : []) {
      const [kind, ...rest] = label.split(' ');
      if (!KIND.test(kind) && !this.wordsInBlob(kind, row.text)) return BREADCRUMB_WORDS;
      if (!this.wordsInBlob(rest.join(' '), row.text)) return BREADCRUMB_WORDS;
    }
    return null;
  }

  /** Whether every word of `text` is in the chunk's own text or elsewhere in the blob (a parent's name). */
  private wordsInBlob(text: string, chunkText: string): boolean {
    for (const word of text.match(WORD) ?? []) {
      if (GIVEN_WORDS.has(word) || chunkText.includes(word)) continue;
      let found = this.found.get(word);
      if (found === undefined) this.found.set(word, (found = this.text!.includes(word)));
      if (!found) return false;
    }
    return true;
  }

  private readonly found = new Map<string, boolean>();

  /** How many chunks the blob is cut into as its first path of this language names it (0 when none does). */
  async chunkCount(language: string): Promise<number> {
    const path = this.pathsFor(language)[0];
    const chunks = path === undefined ? null : await this.chunksAt(path);
    return chunks instanceof Map ? chunks.size : 0;
  }

  /** What is wrong with a mark saying the blob yields no chunks for `reason`, or null. */
  async markProblem(reason: MarkReason): Promise<string | null> {
    const paths = [...this.variants.values()];
    if (this.skipped) return this.skipped === reason ? null : `is marked ${reason}, but it is ${this.skipped}`;
    for (const path of paths) {
      const chunks = await this.chunksAt(path);
      if (chunks === reason) return null;
    }
    return `is marked ${reason}, but this ocrag indexes it`;
  }

  /** The blob cut as `path` names it, each chunk by its span, or why it yields none. */
  private chunksAt(path: string): Promise<Map<string, Chunk> | MarkReason> {
    let cut = this.cuts.get(path);
    if (!cut) {
      cut = this.cut(path, this.bytes, this.maxLineChars).then((r) => ('reason' in r ? r.reason : new Map(r.chunks.map((c) => [spanKey(c.startLine, c.endLine), c]))));
      this.cuts.set(path, cut);
    }
    return cut;
  }
}

const spanKey = (start: number, end: number) => `${start}-${end}`;

/** A definition's kind in a breadcrumb: `function`, `impl`, `defmodule`. */
const KIND = /^[a-z_]{1,24}$/;
/** Words as identifiers and names are spelled, in any script; what a name was cut at (`…`) is no part of one. */
const WORD = /[\p{L}\p{N}_$]+/gu;
const BREADCRUMB_WORDS = 'has a breadcrumb with words its blob does not hold';
/** Words of the names the chunker gives what has no name (`(anonymous)`, Kotlin's `Companion`). */
const GIVEN_WORDS = new Set(GIVEN_NAMES.flatMap((name) => name.match(WORD) ?? []));
