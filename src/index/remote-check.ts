import type { Embedder } from '../embed/index.js';
import type { ContentStore } from '../store/contract.js';
import { ArtifactError } from '../util/errors.js';
import type { IndexContext } from './index-context.js';
import { asideModelFor } from './aside-model.js';
import { contentSampler, describeProblem, IMPORT_SAMPLE, pathsByBlob, verificationKey, verifierFor, type RowVerifier } from './verify/index.js';

/**
 * What an index run holds the team's remote store to (verify/): every row it copies and every content vector it
 * takes, against this repository's blobs at the paths of the tree being indexed. The first problem refuses the
 * remote for the run (exit 4) and the run takes out what it had added (`forgetRun`).
 */
export class RemoteCheck {
  constructor(
    readonly rows: RowVerifier,
    /** Whether a content vector the remote gives is embedded again: the rate of the sample, after a floor. */
    readonly contentSampled: (contentKey: string) => boolean,
    private readonly uri: string,
  ) {}

  /** The first problem found, as the one line the run ends with. */
  refused(): ArtifactError {
    return new ArtifactError(`the remote store ${this.uri} is not usable: ${describeProblem(this.rows.problems[0])}: refused (nothing of it was kept)`);
  }

  /** Waits for the sample's embeddings; throws the refusal when anything did not hold. */
  async finish(): Promise<void> {
    if (!(await this.rows.finish())) throw this.refused();
  }

  close(): Promise<void> {
    return this.rows.close();
  }
}

/** Contents of a remote's vectors checked whatever the rate: a run copying few is checked whole. */
const CONTENT_FLOOR = 512;

/**
 * The check of a run's copy of these blobs (the ones unknown here), at the paths `files` gives them. The sample is
 * cut and embedded again on a worker thread while this one checks, copies and writes every row (as an import's):
 * rows only that judges are judged by `finish`, before the run keeps anything (a refusal takes out what it added).
 */
export async function remoteCheck(ctx: IndexContext, embedder: Embedder, uri: string, files: { path: string; blob: string }[], blobs: string[]): Promise<RemoteCheck> {
  const key = verificationKey(ctx.layout);
  const aside = { model: await asideModelFor(ctx.config.model, embedder) };
  const rows = verifierFor(ctx, { key, dim: embedder.dim, paths: pathsByBlob(files.map((f) => [f.path, f.blob])), blobs, plan: IMPORT_SAMPLE, embedder: async () => embedder, remember: true, aside });
  return new RemoteCheck(rows, contentSampler(key.bytes, IMPORT_SAMPLE.rate, CONTENT_FLOOR), uri);
}

/**
 * After a refusal: takes out every chunk and mark of these blobs (the ones this run found unknown, so none was
 * stored before it), then throws `e`. Anything else thrown passes as it is.
 */
export async function forgetRun(store: ContentStore, blobs: string[], e: unknown): Promise<never> {
  if (e instanceof ArtifactError) await store.deleteBlobs(blobs).catch(() => 0);
  throw e;
}
