import type { SourceLines } from './lines.js';
import type { Definition } from './syntax.js';
import { slidingWindows, splitAtBoundaries, type Span } from './windows.js';

export interface PlanOptions {
  maxLines: number;
  windowLines: number;
  windowOverlap: number;
}

type Piece =
  | { kind: 'between'; start: number; end: number }
  | { kind: 'definition'; spans: Span[] };

/**
 * Chunk ranges for a parsed file. Each definition that fits in maxLines is one chunk; a longer
 * one is split along its nested definitions (its own head and the code between them become
 * chunks under its symbol) or, when it has none, into line windows. Code between definitions is
 * cut into pieces of at most maxLines. Every non-blank line of the file ends up in some chunk.
 */
export function planSpans(lines: SourceLines, definitions: Definition[], options: PlanOptions): Span[] {
  const planner = new Planner(lines, options);
  const spans = planner.region(1, lines.count, definitions, []);
  return [...spans, ...planner.members];
}

class Planner {
  /** Chunks of definitions nested in one kept whole; they lie inside its chunk and take no part in joining. */
  readonly members: Span[] = [];

  constructor(private readonly lines: SourceLines, private readonly options: PlanOptions) {}

  /** `framed`: the region is a namespace's, whose own lines (its head and its closing) join what it holds. */
  region(start: number, end: number, definitions: Definition[], symbols: string[], framed = false): Span[] {
    const pieces: Piece[] = [];
    let cursor = start;
    for (const definition of definitions) {
      if (definition.memberOnly) continue;
      if (definition.startLine > cursor) pieces.push({ kind: 'between', start: cursor, end: definition.startLine - 1 });
      pieces.push({ kind: 'definition', spans: this.definition(definition, symbols) });
      cursor = definition.endLine + 1;
    }
    if (cursor <= end) pieces.push({ kind: 'between', start: cursor, end });
    return this.withMembersWithin(this.join(pieces, symbols, framed), definitions, symbols);
  }

  private definition(definition: Definition, outerSymbols: string[]): Span[] {
    const sole = this.soleHeld(definition);
    // `namespace app { class Router { … } }`: the class is the unit, named under its namespace, framing lines and all.
    if (sole) return this.definition({ ...sole, startLine: definition.startLine, endLine: definition.endLine }, [...outerSymbols, definition.label]);
    const symbols = [...outerSymbols, definition.label];
    const { startLine, endLine } = definition;
    const { maxLines, windowLines, windowOverlap } = this.options;
    if (endLine - startLine + 1 <= maxLines) {
      const trimmed = this.lines.trimRange(startLine, endLine);
      if (!trimmed) return [];
      const whole: Span = { start: trimmed[0], end: trimmed[1], symbols };
      this.addMembers(definition.children, symbols, whole);
      return [whole];
    }
    if (definition.children.some((child) => !child.memberOnly)) return this.region(startLine, endLine, definition.children, symbols, definition.groups);
    const windows = slidingWindows(this.lines, startLine, endLine, Math.min(windowLines, maxLines), windowOverlap, symbols);
    return this.withMembersWithin(windows, definition.children, symbols);
  }

  /** The one definition a namespace holds, with nothing else in it but a few framing lines (`namespace x {`, `}`). */
  private soleHeld(definition: Definition): Definition | undefined {
    const [child, ...others] = definition.children;
    if (!definition.groups || !child || others.length > 0 || child.memberOnly) return undefined;
    const frame = this.nonBlank(definition.startLine, child.startLine - 1) + this.nonBlank(child.endLine + 1, definition.endLine);
    return frame <= MAX_FRAME_LINES ? child : undefined;
  }

  private nonBlank(start: number, end: number): number {
    let count = 0;
    for (let line = start; line <= end; line++) if (!this.lines.isBlank(line)) count++;
    return count;
  }

  /**
   * The member-only definitions (fields, constants) among these, as members of the chunks of a definition split
   * along its others or into windows: each inside one chunk under the same breadcrumb, or left out (it would
   * otherwise be a chunk search cannot tell from the file's own pieces).
   */
  private withMembersWithin(spans: Span[], definitions: Definition[], symbols: string[]): Span[] {
    for (const definition of definitions) {
      if (!definition.memberOnly) continue;
      const holder = spans.find((s) => s.start <= definition.startLine && definition.endLine <= s.end && s.symbols.join('\n') === symbols.join('\n'));
      if (holder) this.addMembers([definition], symbols, holder);
    }
    return spans;
  }

  /**
   * The definitions nested in one kept whole (methods of a small class, functions inside a function), each a
   * chunk of its own inside the whole one, so the symbol table, find_symbol and ranking see every member with
   * its own lines. A member on exactly its parent's lines adds nothing (and would take the parent's chunk id).
   */
  private addMembers(children: Definition[], outerSymbols: string[], parent: Span): void {
    for (const child of children) {
      const symbols = [...outerSymbols, child.label];
      const trimmed = this.lines.trimRange(child.startLine, child.endLine);
      if (!trimmed) continue;
      const span: Span = { start: trimmed[0], end: trimmed[1], symbols };
      if (span.start !== parent.start || span.end !== parent.end) this.members.push(span);
      this.addMembers(child.children, symbols, span);
    }
  }

  /**
   * Emits pieces in order. Two kinds of small in-between pieces join a neighbour instead of
   * becoming chunks that would be noise in search results:
   * - a trivial piece (a lone `}` or `end`) joins the previous chunk, or the next one when it
   *   opens a block (`type (`), as long as that chunk stays within maxLines + ATTACH_SLACK lines;
   * - one or two lines directly below a definition kept whole (`__name(f, "f")`,
   *   `declare var X: XConstructor;`) join that definition's chunk if it stays within maxLines;
   * - in a namespace's region (`framed`), its head joins the first chunk and its closing the last, as a trivial
   *   piece does: `namespace app {` alone says nothing a search could want.
   */
  private join(pieces: Piece[], symbols: string[], framed: boolean): Span[] {
    const spans: Span[] = [];
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (piece.kind === 'definition') {
        spans.push(...piece.spans);
        continue;
      }
      const trimmed = this.lines.trimRange(piece.start, piece.end);
      if (!trimmed) continue;
      const [start, end] = trimmed;
      const trailed = this.trailedDefinition(pieces[i - 1], start, end);
      if (trailed) {
        trailed.end = end;
        continue;
      }
      const frame = framed && (i === 0 || i === pieces.length - 1) && this.nonBlank(start, end) <= MAX_FRAME_LINES;
      if (frame || this.isTrivial(start, end)) {
        const previous = spans[spans.length - 1];
        const following = pieces[i + 1];
        const next = following?.kind === 'definition' ? following.spans[0] : undefined;
        const attachForward = frame ? i === 0 : OPENER.test(this.lines.lines[end - 1]!);
        const attached = attachForward
          ? this.extendStart(next, start) || this.extendEnd(previous, end)
          : this.extendEnd(previous, end) || this.extendStart(next, start);
        if (attached) continue;
      }
      spans.push(...splitAtBoundaries(this.lines, start, end, this.options.maxLines, symbols));
    }
    return spans;
  }

  private extendEnd(span: Span | undefined, end: number): boolean {
    if (!span || end - span.start + 1 > this.options.maxLines + ATTACH_SLACK) return false;
    span.end = Math.max(span.end, end);
    return true;
  }

  private extendStart(span: Span | undefined, start: number): boolean {
    if (!span || span.end - start + 1 > this.options.maxLines + ATTACH_SLACK) return false;
    span.start = Math.min(span.start, start);
    return true;
  }

  /** The single-chunk definition that lines start..end (at most two) directly follow and fit into. */
  private trailedDefinition(before: Piece | undefined, start: number, end: number): Span | undefined {
    if (before?.kind !== 'definition' || before.spans.length !== 1) return undefined;
    const definition = before.spans[0]!;
    const fits = end - definition.start < this.options.maxLines;
    return start === definition.end + 1 && end - start < 2 && fits ? definition : undefined;
  }

  /** At most two short lines with at most one word each: closers, `end`, `type (`. */
  private isTrivial(start: number, end: number): boolean {
    let nonBlank = 0;
    for (let line = start; line <= end; line++) {
      if (this.lines.isBlank(line)) continue;
      const text = this.lines.lines[line - 1]!.trim();
      if (++nonBlank > 2 || text.length > 8 || !ONE_WORD_AT_MOST.test(text)) return false;
    }
    return true;
  }
}

const ATTACH_SLACK = 3;
/**
 * A namespace's own lines around what it holds: its line and brace, a closing with its comment, a few `using`
 * lines. More than this is code of its own, not a frame.
 */
const MAX_FRAME_LINES = 8;
const ONE_WORD_AT_MOST = /^\W*\w*\W*$/;
const OPENER = /[({[:]\s*$/;
