/** One piece of a file, the unit that is embedded and returned by search. */
export interface Chunk {
  /** 1-based, inclusive. */
  startLine: number;
  /** 1-based, inclusive. */
  endLine: number;
  /** Language name (e.g. "typescript", "python", "text"). */
  language: string;
  /** Enclosing symbols outermost first, e.g. ["class Router", "method handle"]. Empty when none. */
  symbols: string[];
  /** The exact source lines startLine..endLine joined with "\n" (no trailing newline). */
  text: string;
}

export interface ChunkOptions {
  /** Longest chunk in lines before it is split (default 80). */
  maxLines: number;
  /** Line-window fallback: window size and overlap (default 60 / 10). */
  windowLines: number;
  windowOverlap: number;
  /** Longest line kept verbatim; longer lines are cut to this many characters (default 1000). */
  maxLineChars: number;
}
