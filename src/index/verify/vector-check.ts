import { POOL_MIN_BATCH, type Embedder } from '../../embed/index.js';
import { vectorProblem } from '../../store/row-integrity.js';

/** A row's vector as it came, with what it must be the embedding of. */
export interface VectorClaim {
  blob: string;
  path: string | null;
  lines: [number, number] | null;
  /** The text its content is embedded as (breadcrumb and text). */
  embedding: string;
  vector: Float32Array;
  quantized: boolean;
}

/**
 * How close a vector must be to this machine's embedding of its text. The default model gives the same text the
 * same vector to 1e-8 (cosine ≥ 0.99999999 over 800 chunks embedded twice, in workers and not), so 0.9999 leaves
 * a model of another backend its own rounding. Distinct contents are rarely that close: of 300 of tokio's 14,372
 * contents, the nearest other content was at cosine 0.909 (median), 0.989 (90 %), 0.9991 (99 %); changing one
 * word of a 4-line function moves its vector to ≤ 0.95. So a vector passes only as its own text's, or a near
 * duplicate's. An int8 copy (a search-ready set) stays at ≥ 0.99992 of its vector (all 14,372): it gets 0.999.
 */
export const COSINE_MIN = 0.9999;
export const QUANTIZED_COSINE_MIN = 0.999;

/** Embeddings kept to compare contents met again: 100 MB of 512-d vectors at most. */
const KEEP_EMBEDDED = 50_000;

/** How contents go to the model: so many at a time, and so many groups waiting for it before the rows' reader waits. */
export interface Pace {
  group: number;
  ahead: number;
}

/**
 * A sample (~1,100 of tokio's contents) is embedded in groups just under the size that starts the model's worker
 * pool: two workers cost ~1 s of CPU to start (modules, tokenizer, measured on tokio's import) for ~0.4 s of
 * embedding. It is a twentieth of an import's contents (tokio: ~700, 11 groups) and its claims a few MB, so the
 * reader never waits for it: its own work (texts, writes) runs beside the model's instead of stopping while three
 * groups waited (0.8 s of a tokio import's 2.7 s of reading, at load 10, was spent so).
 */
export const SAMPLE_PACE: Pace = { group: POOL_MIN_BATCH - 1, ahead: 64 };
/** Everything (doctor --verify) goes to the pool, 256 at a time, two groups ahead: its claims would otherwise hold a whole store's vectors. */
export const WHOLE_PACE: Pace = { group: 256, ahead: 2 };

/**
 * Embeds the sampled contents again, a group at a time while rows are still being read, and reports each whose
 * vector is not this model's embedding of its text.
 */
export class VectorCheck {
  embedded = 0;
  private pending = new Map<string, VectorClaim>();
  /** Every claim on a content being embedded, the first one's included. */
  private readonly queued = new Map<string, VectorClaim[]>();
  private running: Promise<void> = Promise.resolve();
  /** Groups handed to the model, oldest first, until keepUp lets go of them. */
  private readonly groups: Promise<void>[] = [];
  private failure: unknown = null;

  constructor(
    private readonly embedder: () => Promise<Embedder>,
    /** Contents embedded so far, by key (shared with other checks of the same run). */
    private readonly done: Map<string, Float32Array>,
    private readonly onMismatch: (claim: VectorClaim, what: string) => void,
    private readonly pace: Pace,
  ) {}

  /** A sampled row's vector, checked now when its content was embedded before, else with its group. */
  add(key: string, claim: VectorClaim): void {
    const known = this.done.get(key);
    if (known) return this.compare(claim, known);
    // A content already on its way is embedded once: this claim is compared when it arrives.
    const waiting = this.queued.get(key);
    if (waiting) return void waiting.push(claim);
    this.queued.set(key, [claim]);
    this.pending.set(key, claim);
    if (this.pending.size >= this.pace.group) this.flush();
  }

  /** Every group embedded and compared; throws what embedding threw (a model that fails to load). */
  async finish(): Promise<void> {
    this.flush();
    await this.running;
    if (this.failure) throw this.failure;
  }

  /**
   * Waits while more than the pace's groups wait for the model: rows are checked far faster than contents are
   * embedded, and each claim holds a copy of its vector (doctor --verify embeds a whole store's).
   */
  async keepUp(): Promise<void> {
    while (this.groups.length > this.pace.ahead) await this.groups.shift();
  }

  /** Waits for what is under way, whatever came of it. */
  async settle(): Promise<void> {
    await this.running.catch(() => undefined);
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    const group = [...this.pending];
    this.pending = new Map();
    // Handed to the model at once (one on another thread works while rows are checked here); compared in order.
    const embedding = this.embedder().then((m) => m.embed(group.map(([, claim]) => claim.embedding)));
    embedding.catch(() => undefined);
    this.running = this.running.then(async () => {
      if (this.failure) return;
      try {
        const vectors = await embedding;
        this.embedded += group.length;
        group.forEach(([key], i) => {
          // Kept for a content met again (a search-ready set's rows); bounded, since doctor embeds everything.
          if (this.done.size < KEEP_EMBEDDED) this.done.set(key, vectors[i]);
          for (const claim of this.queued.get(key) ?? []) this.compare(claim, vectors[i]);
          this.queued.delete(key);
        });
      } catch (e) {
        this.failure = e;
      }
    });
    this.groups.push(this.running);
  }

  private compare(claim: VectorClaim, expected: Float32Array): void {
    const similarity = cosine(claim.vector, expected);
    if (similarity >= (claim.quantized ? QUANTIZED_COSINE_MIN : COSINE_MIN)) return;
    this.onMismatch(claim, `has a vector that is not this model's embedding of its text (cosine ${similarity.toFixed(3)})`);
  }
}

/** Cosine of two vectors; two all-zero vectors (a text with no tokens) agree. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += a[d] * b[d];
    na += a[d] * a[d];
    nb += b[d] * b[d];
  }
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0 || a.length !== b.length) return 0;
  return dot / Math.sqrt(na * nb);
}

/** What is wrong with a row's vector as such: its size, a value that is no finite number, its length (store/row-integrity.ts). */
export function vectorLengthProblem(row: { vector: Float32Array; quantized?: boolean }, dim: number): string | null {
  if (row.vector.length !== dim) return `has no ${dim}-d vector`;
  if (!row.quantized) return vectorProblem(row.vector, 0, dim);
  let sum = 0;
  for (let d = 0; d < row.vector.length; d++) sum += row.vector[d] * row.vector[d];
  // An int8 copy of a unit vector keeps its length within ~1 % (scale = largest / 127).
  return sum !== 0 && !(Math.abs(sum - 1) <= 0.05) ? `has a vector of length ${Math.sqrt(sum).toPrecision(3)}, not 1` : null;
}
