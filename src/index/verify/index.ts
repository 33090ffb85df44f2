import type { Embedder } from '../../embed/index.js';
import type { IndexIdentity } from '../../store/identity.js';
import type { IndexContext } from '../index-context.js';
import { RowVerifier, type VerifierOptions } from './row-verifier.js';
import { EVERY_ROW, sampleBlobs, verificationKey, type SamplePlan, type VerificationKey } from './sample.js';

export { RowVerifier } from './row-verifier.js';
export { describeProblem, rowSays, type RowProblem } from './row-problem.js';
export { rowSaysOfBatch } from './stored-says.js';
export { rowsOfBatch, type VerifiableRow } from './batch-rows.js';
export { contentSampler, EVERY_ROW, IMPORT_SAMPLE, verificationKey, type SamplePlan, type VerificationKey } from './sample.js';
export { cosine, COSINE_MIN } from './vector-check.js';

/** Path → blob pairs (a manifest's files, a tree's entries) as blob → its paths, in the order given. */
export function pathsByBlob(entries: Iterable<readonly [string, string]>): (blob: string) => readonly string[] {
  const paths = new Map<string, string[]>();
  for (const [path, blob] of entries) {
    const list = paths.get(blob);
    if (list) list.push(path);
    else paths.set(blob, [path]);
  }
  return (blob) => paths.get(blob) ?? [];
}

/**
 * A verifier of rows from outside for this repository: `blobs` are the ones the rows may be of (the sample is
 * drawn among them), keyed by this index's secret unless everything is checked.
 */
export function verifierFor(
  ctx: Pick<IndexContext, 'repo' | 'layout' | 'config'>,
  opts: { dim: number; paths: (blob: string) => readonly string[]; blobs: Iterable<string>; plan: SamplePlan; embedder: () => Promise<Embedder>; keepProblems?: number; remember?: boolean; key?: VerificationKey; identity?: IndexIdentity; stored?: Map<string, string>; aside?: VerifierOptions['aside'] },
): RowVerifier {
  const key = opts.plan === EVERY_ROW ? null : (opts.key ?? verificationKey(ctx.layout));
  return new RowVerifier({
    onAccepted: key?.save,
    root: ctx.repo.root,
    paths: opts.paths,
    maxLineChars: ctx.config.maxLineChars,
    dim: opts.dim,
    sample: sampleBlobs(key?.bytes ?? null, opts.blobs, opts.plan),
    embedder: opts.embedder,
    keepProblems: opts.keepProblems,
    remember: opts.remember,
    identity: opts.identity,
    everything: opts.plan === EVERY_ROW,
    stored: opts.stored,
    aside: opts.aside,
  });
}
