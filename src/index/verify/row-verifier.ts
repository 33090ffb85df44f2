import { BlobReader } from '../../git/blobs.js';
import type { BlobMark, ChunkBatch } from '../../store/contract.js';
import { contentKey } from '../../store/content-key.js';
import { rowSays, type RowProblem } from './row-problem.js';
import { vectorProblem } from '../../store/row-integrity.js';
import { chunkId } from '../chunk-id.js';
import { contentEmbeddingText, contentTerms } from '../content-text.js';
import { chunkerVersionsByLanguage } from '../../chunk/version.js';
import { AsideWorker } from './aside-worker.js';
import { BlobTruth, CUT_TELLS } from './blob-truth.js';
import type { BlobSample } from './sample.js';
import { rowsOfBatch, type VerifiableRow } from './batch-rows.js';
import { SAMPLE_PACE, VectorCheck, vectorLengthProblem, WHOLE_PACE, type VectorClaim } from './vector-check.js';
import { TermsCheck } from './terms-check.js';
import type { VerifierOptions } from './verifier-options.js';

export type { VerifierOptions } from './verifier-options.js';

/** What a verifier and its forks share: one git process, the blobs read, the rows accepted, the contents embedded. */
interface Shared {
  /** Started at once (git is up when rows come), or with the first blob read when stored rows are given (may need none). */
  reader: BlobReader | null;
  /** Set once the owner closed: a fork used after it must not start a git process nobody closes. */
  closed: boolean;
  truths: Map<string, Promise<BlobTruth | null>>;
  /** The blob last asked for, last in `truths`' order (oldest first). */
  newest?: string;
  truthBytes: number;
  /** Rows accepted so far, id → language and content key: the same row again (a search set's) needs no blob. */
  accepted: Map<string, string>;
  embedded: Map<string, Float32Array>;
  aside: AsideWorker | null;
}

/** Blob contents held for rows still to come: a batch's rows are usually of a few blobs, in order. */
const TRUTH_BYTES = 64 * 1024 * 1024;
const TERMS_PROBLEM = 'has search words that are not those of its text';
/** Rows waiting for their blob's cut before `check` waits for them: tokio's import has ~1,700 (sample and documents). */
const ROWS_AWAITING_CUTS = 4096;

/**
 * Holds rows to the local git object database, the one thing ocrag trusts: every row's text against its blob,
 * its language against its paths, its words against its text, its vector finite and of unit length; a sample of
 * blobs (sample.ts) cut again (spans, breadcrumbs, texts) and embedded again. Blobs the repository lacks, and
 * marks that say a blob yields nothing when it does, are problems too. Nothing is written anywhere.
 */
export class RowVerifier {
  readonly problems: RowProblem[] = [];
  /** Problems found, kept or not. */
  problemCount = 0;
  readonly counts = { rows: 0, marks: 0, blobsCut: 0 };
  private readonly shared: Shared;
  /** Whether the git process is this verifier's to close (not a fork's). */
  private readonly owner: boolean;
  /** Each sampled blob's spans seen, and how many chunks its cut gives: a blob must come whole or not at all. */
  private readonly whole = new Map<string, { seen: Set<string>; path: string | null; expected: number | null }>();
  private readonly vectors: VectorCheck;
  private readonly keep: number;
  private readonly versionOf: ((language: string) => string) | null;
  /** Rows judged once their blob's cut, or the worker's word of their search words, comes back (`aside`). */
  private readonly awaitingCuts = new Set<Promise<void>>();
  /** The sample's search words, held to their texts on the worker (`aside`, without `remember`); else here, as each row comes. */
  private readonly terms: TermsCheck | null;

  constructor(
    private readonly opts: VerifierOptions,
    shared?: Shared,
  ) {
    this.owner = !shared;
    this.shared = shared ?? { reader: opts.stored ? null : new BlobReader(opts.root), closed: false, truths: new Map(), truthBytes: 0, accepted: new Map(), embedded: new Map(), aside: opts.aside ? new AsideWorker() : null };
    this.keep = opts.keepProblems ?? 1;
    this.versionOf = opts.identity ? chunkerVersionsByLanguage(opts.identity) : null;
    const pace = opts.everything ? WHOLE_PACE : SAMPLE_PACE;
    const { aside } = this.shared;
    const model = opts.aside?.model;
    // One for the run: it falls back to `opts.embedder` for good once the worker fails.
    const asideEmbedder = aside && model ? aside.embedder(model.spec, model, opts.embedder) : null;
    const embedder = asideEmbedder ? async () => asideEmbedder : opts.embedder;
    this.vectors = new VectorCheck(embedder, this.shared.embedded, (claim, what) => this.report({ blob: claim.blob, path: claim.path, lines: claim.lines, what }), pace);
    this.terms = aside && !opts.remember ? new TermsCheck(aside.termsDiffer, (judged) => this.judgeLater(judged), (where) => this.report({ ...where, what: TERMS_PROBLEM })) : null;
  }

  /**
   * A verifier of other rows of the same repository (a search-ready set after the chunks it names were copied),
   * with problems of its own: rows this one accepted pass again without their blobs, contents it embedded are not
   * embedded twice. Its blobs are read through this one's git process: close it first.
   */
  fork(sample = this.opts.sample): RowVerifier {
    return new RowVerifier({ ...this.opts, sample, onAccepted: undefined }, this.shared);
  }

  /** What of a blob's rows is checked beyond their text. */
  sampleOf(blob: string): BlobSample {
    return this.opts.sample(blob);
  }

  /** Whether enough problems were found to stop. */
  get done(): boolean {
    return this.problems.length >= this.keep;
  }

  /** Contents embedded again so far. */
  get embedded(): number {
    return this.vectors.embedded;
  }

  /** Checks a batch of the store's chunk columns (every one, vector included). */
  checkBatch(batch: ChunkBatch): Promise<boolean> {
    return this.check(rowsOfBatch(batch));
  }

  /** Checks rows; false once enough problems were found. The sample's embeddings finish in `finish`. */
  async check(rows: Iterable<VerifiableRow>): Promise<boolean> {
    const list = [...rows];
    // Their blobs are read ahead, all at once: git answers while the first rows are checked.
    for (const row of list) if (!this.opts.stored?.has(row.id) && !(this.opts.remember && this.shared.accepted.has(row.id))) void this.truthOf(row.blob);
    for (const row of list) {
      if (this.done) return false;
      this.counts.rows++;
      const sample = this.opts.sample(row.blob);
      if (sample.chunks) this.wholeOf(row.blob).seen.add(`${row.startLine}-${row.endLine}`);
      const held = this.opts.stored?.get(row.id);
      if (held !== undefined) {
        if (held !== rowSays(row.symbol, row.text, row.terms ?? '')) this.report({ blob: row.blob, path: this.opts.paths(row.blob)[0] ?? null, lines: [row.startLine, row.endLine], what: 'says otherwise than the row this index holds under its id (its breadcrumb, text or search words)' });
        continue;
      }
      // Hashed only where it is used: a content's key is a sha256 of all its text.
      const key = this.opts.remember || sample.vectors ? contentKey(row.symbol, row.text) : '';
      const verdict = await this.rowProblem(row, key, sample);
      const problem = (verdict === CUT_TELLS ? null : verdict) ?? vectorLengthProblem(row, this.opts.dim);
      if (problem) {
        this.report({ blob: row.blob, path: this.opts.paths(row.blob)[0] ?? null, lines: [row.startLine, row.endLine], what: problem });
        continue;
      }
      if (this.opts.remember && verdict !== CUT_TELLS) this.shared.accepted.set(row.id, `${row.language}\0${key}`);
      if (sample.vectors) this.vectors.add(key, this.claimOf(row));
    }
    if (this.awaitingCuts.size > ROWS_AWAITING_CUTS) await Promise.all(this.awaitingCuts);
    await this.vectors.keepUp();
    return !this.done;
  }

  /** Checks marks (a blob read that yields no chunks) against the blobs. */
  async checkMarks(marks: Iterable<BlobMark>): Promise<boolean> {
    for (const mark of marks) {
      if (this.done) return false;
      this.counts.marks++;
      const truth = await this.truthOf(mark.blob);
      const problem = truth ? await truth.markProblem(mark.reason) : 'is not in this repository, so its mark cannot be checked: git fetch, then try again';
      if (problem) this.report({ blob: mark.blob, path: this.opts.paths(mark.blob)[0] ?? null, lines: null, what: problem });
    }
    return !this.done;
  }

  /** Waits for the sample's embeddings; false when any problem was found. */
  async finish(): Promise<boolean> {
    this.terms?.flush();
    await Promise.all(this.awaitingCuts);
    for (const [blob, { seen, path, expected }] of this.whole) {
      // Rows dropped from a blob would leave its other chunks stored as if it were whole: searches never see the rest.
      if (expected !== null && seen.size < expected) this.report({ blob, path, lines: null, what: `lacks ${expected - seen.size} of the ${expected} chunks this ocrag cuts from its blob` });
    }
    if (!this.done) await this.vectors.finish();
    if (this.problemCount > 0) return false;
    this.opts.onAccepted?.();
    return true;
  }

  /**
   * A content's vector and words from outside (a remote's, for the text of a chunk this repository holds): its words
   * are those of the text, its vector of unit length and, when `sampled`, this model's embedding of it.
   */
  checkContent(key: string, chunk: { blob: string; startLine: number; endLine: number; embedding: string }, content: { vector: Float32Array; terms: string }, sampled: boolean): boolean {
    const where = { blob: chunk.blob, path: this.opts.paths(chunk.blob)[0] ?? null, lines: [chunk.startLine, chunk.endLine] as [number, number] };
    const what =
      content.vector.length !== this.opts.dim ? `has no ${this.opts.dim}-d vector` : content.terms !== contentTerms(chunk.embedding) ? TERMS_PROBLEM : vectorProblem(content.vector, 0, this.opts.dim);
    if (what) this.report({ ...where, what: `gets a content that ${what}` });
    else if (sampled) this.vectors.add(key, { ...where, embedding: chunk.embedding, vector: Float32Array.from(content.vector), quantized: false });
    return !this.done;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.awaitingCuts);
    await this.vectors.settle();
    if (!this.owner) return;
    this.shared.closed = true;
    await Promise.all([this.shared.reader?.close(), this.shared.aside?.close()]);
  }

  private async rowProblem(row: VerifiableRow, key: string, sample: BlobSample): Promise<string | null | typeof CUT_TELLS> {
    const problem = await this.blobProblem(row, key, sample);
    // Search words, like the vector, are what a content is found by, not what is shown: checked with the vector.
    if (typeof problem === 'string' || !sample.vectors || row.terms === undefined) return problem;
    const embedding = contentEmbeddingText(row.symbol, row.text);
    // A verifier that remembers judges the words at once: it remembers a row as `check` accepts it, so never one whose
    // words failed (what the remembered key covers, breadcrumb and text, has held by then; the vector waits for `finish`).
    if (!this.terms) return row.terms === contentTerms(embedding) ? problem : TERMS_PROBLEM;
    this.terms.add(embedding, row.terms, { blob: row.blob, path: this.opts.paths(row.blob)[0] ?? null, lines: [row.startLine, row.endLine] });
    return problem;
  }

  private async blobProblem(row: VerifiableRow, key: string, sample: BlobSample): Promise<string | null | typeof CUT_TELLS> {
    if (this.versionOf && row.id !== chunkId(row.blob, this.versionOf(row.language), this.opts.identity!.modelId, row.startLine, row.endLine)) return 'has a chunk id that does not match its blob, span, model and chunker';
    // The same row, already held to its blob (a search-ready set's row after the copy of its chunks).
    if (this.opts.remember && this.shared.accepted.get(row.id) === `${row.language}\0${key}`) return null;
    if (this.opts.paths(row.blob).length === 0) return 'belongs to a blob no path of this commit holds';
    const truth = await this.truthOf(row.blob);
    if (!truth) return 'belongs to a blob this repository does not have, so it cannot be checked: git fetch, then try again';
    const whole = sample.chunks ? this.wholeOf(row.blob) : null;
    if (!this.shared.aside) {
      await this.countWhole(row, truth, whole);
      return truth.problem(row, sample.chunks);
    }
    const uncut = truth.uncutProblem(row, sample.chunks);
    if (uncut !== CUT_TELLS) return uncut;
    // Judged once its blob's cut comes back; `finish` waits for it.
    this.judgeLater(
      this.countWhole(row, truth, whole).then(async () => {
        const problem = await truth.cutProblem(row);
        if (problem) this.report({ blob: row.blob, path: this.opts.paths(row.blob)[0] ?? null, lines: [row.startLine, row.endLine], what: problem });
        else if (this.opts.remember && this.problemCount === 0) this.shared.accepted.set(row.id, `${row.language}\0${key}`);
      }),
    );
    return CUT_TELLS;
  }

  /** Work whose problems `finish` waits for. */
  private judgeLater(judged: Promise<void>): void {
    this.awaitingCuts.add(judged);
    void judged.finally(() => this.awaitingCuts.delete(judged)).catch(() => undefined);
  }

  /** How many chunks a sampled blob's cut gives, for `finish` to hold its rows to: counted once, as its first row comes. */
  private async countWhole(row: VerifiableRow, truth: BlobTruth, whole: { expected: number | null } | null): Promise<void> {
    if (!whole || whole.expected !== null) return;
    this.counts.blobsCut++;
    // Not null while the cut runs: the blob's next rows (judged while it runs, `aside`) do not count it again.
    whole.expected = 0;
    whole.expected = await truth.chunkCount(row.language);
  }

  private wholeOf(blob: string): { seen: Set<string>; path: string | null; expected: number | null } {
    let whole = this.whole.get(blob);
    if (!whole) this.whole.set(blob, (whole = { seen: new Set(), path: this.opts.paths(blob)[0] ?? null, expected: null }));
    return whole;
  }

  private claimOf(row: VerifiableRow): VectorClaim {
    return { blob: row.blob, path: this.opts.paths(row.blob)[0] ?? null, lines: [row.startLine, row.endLine], embedding: contentEmbeddingText(row.symbol, row.text), vector: Float32Array.from(row.vector), quantized: row.quantized === true };
  }

  private report(problem: RowProblem): void {
    this.problemCount++;
    if (this.problems.length < this.keep) this.problems.push(problem);
  }

  /** The blob as git holds it, read once while its rows come (bounded), or null when the repository lacks it. */
  private truthOf(blob: string): Promise<BlobTruth | null> {
    let truth = this.shared.truths.get(blob);
    // Asked for each row, twice, of a few blobs in turn: the newest one need not be moved last again.
    if (truth && blob === this.shared.newest) return truth;
    this.shared.newest = blob;
    if (truth) {
      this.shared.truths.delete(blob);
      this.shared.truths.set(blob, truth);
      return truth;
    }
    truth = this.reader().read(blob).then((bytes) => {
      if (!bytes) return null;
      const held = new BlobTruth(bytes, this.opts.paths(blob), this.opts.maxLineChars, this.shared.aside?.cut);
      this.shared.truthBytes += held.size;
      this.evict();
      return held;
    });
    this.shared.truths.set(blob, truth);
    return truth;
  }

  private reader(): BlobReader {
    if (this.shared.closed) throw new Error('blobs read by a verifier already closed');
    return (this.shared.reader ??= new BlobReader(this.opts.root));
  }

  private evict(): void {
    for (const [blob, truth] of this.shared.truths) {
      if (this.shared.truthBytes <= TRUTH_BYTES || this.shared.truths.size <= 1) return;
      this.shared.truths.delete(blob);
      void truth.then((t) => (this.shared.truthBytes -= t?.size ?? 0));
    }
  }
}
