/** Where a row is, for a problem about it. */
export interface RowWhere {
  blob: string;
  path: string | null;
  lines: [number, number];
}

/** Indexes of the texts whose search words (`contentTerms`) are not the words given with them. */
export type TermsDiffer = (texts: string[], terms: string[]) => Promise<number[]>;

/**
 * Sampled rows in a group: the verifier's worker tokenizes ~1,100 of tokio's contents in groups of 64 that way
 * (what their text costs the reading thread is a copy).
 */
const GROUP = 64;

/**
 * The search words of sampled rows held to their texts on the verifier's worker (aside-worker.ts), a group at a time
 * while rows are still read: they cost the reading thread of an import ~70 ms of tokio's ~1,100 contents, and the
 * worker, which embeds the same texts, is the one with time to spare. Each group is handed to `later`, for the
 * verifier's `finish` to wait for as it waits for its rows judged by their blob's cut.
 */
export class TermsCheck {
  private texts: string[] = [];
  private terms: string[] = [];
  private where: RowWhere[] = [];

  constructor(
    private readonly differ: TermsDiffer,
    private readonly later: (judged: Promise<void>) => void,
    private readonly onMismatch: (where: RowWhere) => void,
  ) {}

  /** A sampled row: `text` is what its content is embedded as, `terms` the search words it came with. */
  add(text: string, terms: string, where: RowWhere): void {
    this.texts.push(text);
    this.terms.push(terms);
    this.where.push(where);
    if (this.texts.length >= GROUP) this.flush();
  }

  /** Hands over the rows not yet sent (before the verifier waits for every group). */
  flush(): void {
    if (this.texts.length === 0) return;
    const where = this.where;
    const judged = this.differ(this.texts, this.terms).then((differ) => {
      for (const i of differ) this.onMismatch(where[i]);
    });
    this.texts = [];
    this.terms = [];
    this.where = [];
    this.later(judged);
  }
}
