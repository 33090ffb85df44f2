import type { Embedder } from '../../embed/index.js';
import type { IndexIdentity } from '../../store/identity.js';
import type { AsideModel } from '../aside-model.js';
import type { BlobSample } from './sample.js';

export interface VerifierOptions {
  /** The repository whose object database is the truth. */
  root: string;
  /** The local paths of a blob (its language, and so how it is cut, comes from them). */
  paths: (blob: string) => readonly string[];
  maxLineChars: number;
  dim: number;
  /** Which blobs are cut and embedded again (sample.ts). */
  sample: (blob: string) => BlobSample;
  embedder: () => Promise<Embedder>;
  /** Problems kept before checking stops; default 1 (the first refuses everything). */
  keepProblems?: number;
  /** Every content is embedded again (doctor --verify), not a sample: the model's worker pool pays then. */
  everything?: boolean;
  /**
   * Rows this index holds already, by id, as `rowSays` puts what they say: one is never written again, so an
   * incoming row of that id need only say the same (no blob read); one that says otherwise is a problem.
   */
  stored?: ReadonlyMap<string, string>;
  /** Called once `finish` found everything held (the sample's key is then kept). */
  onAccepted?: () => void;
  /** Derive every row's chunk id again from its blob, span, this model and chunker (rows the caller did not check so). */
  identity?: IndexIdentity;
  /** Remember the rows accepted, so the same rows again (a search-ready set's, after a copy) pass without their blobs. */
  remember?: boolean;
  /**
   * Blobs are cut again on a worker thread (aside-worker.ts), and a row only their cut can judge is judged by `finish`
   * (as the sample's vectors are), and remembered once it held: for a caller that uses nothing before `finish` held.
   * With `model`, the sample is embedded there too, by the model that spec loads if it is the one this index uses.
   */
  aside?: { model?: AsideModel };
}
