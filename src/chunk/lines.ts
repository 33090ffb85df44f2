/** What `trim` keeps: `\s` is exactly the white space and line terminators it removes, and testing for it copies nothing. */
const NOT_SPACE = /\S/;

/** A file as lines (1-based), the way chunks see it: CR stripped, overlong lines cut. */
export class SourceLines {
  /** lines[0] is line 1. */
  readonly lines: string[];
  /** Total length of the lines that had to be cut: a measure of how minified the file is. */
  readonly overlongChars: number;
  /** Made with the first question about a blank line: holding rows to a blob (index/verify/) asks none. */
  private blankLines: Uint8Array | null = null;

  constructor(text: string, maxLineChars: number) {
    const raw = text.split('\n');
    let overlongChars = 0;
    this.lines = new Array<string>(raw.length);
    for (let i = 0; i < raw.length; i++) {
      let line = raw[i]!;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.length > maxLineChars) {
        overlongChars += line.length;
        line = cutLine(line, maxLineChars);
      }
      this.lines[i] = line;
    }
    this.overlongChars = overlongChars;
  }

  get count(): number {
    return this.lines.length;
  }

  isBlank(line: number): boolean {
    return this.blank()[line - 1] === 1;
  }

  private blank(): Uint8Array {
    if (this.blankLines) return this.blankLines;
    const blank = new Uint8Array(this.lines.length);
    for (let i = 0; i < blank.length; i++) blank[i] = NOT_SPACE.test(this.lines[i]!) ? 0 : 1;
    return (this.blankLines = blank);
  }

  /** Leading whitespace width of a line (tabs count as one). */
  indentOf(line: number): number {
    const text = this.lines[line - 1] ?? '';
    const first = text.search(NOT_SPACE);
    return first < 0 ? text.length : first;
  }

  /** The range shrunk to its first and last non-blank lines, or null when all blank. */
  trimRange(start: number, end: number): [number, number] | null {
    let s = Math.max(1, start);
    let e = Math.min(this.count, end);
    while (s <= e && this.isBlank(s)) s++;
    while (e >= s && this.isBlank(e)) e--;
    return s <= e ? [s, e] : null;
  }

  textOf(start: number, end: number): string {
    return this.lines.slice(start - 1, end).join('\n');
  }
}

function cutLine(line: string, maxChars: number): string {
  const code = line.charCodeAt(maxChars - 1);
  // Never leave half a surrogate pair at the cut.
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars;
  return line.slice(0, end);
}
