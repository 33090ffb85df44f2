import { fileEvidence as wholeFileEvidence } from '../file-evidence.js';
import type { BoostSignal } from './signal.js';

/** Whole-file evidence (file-as-document BM25, best chunk cosine) added to each of the file's chunks. */
export const fileEvidence: BoostSignal = {
  name: 'fileEvidence',
  stage: 'boost',
  weight: (cfg) => cfg.fileBoost,
  prepare: ({ q, cfg, candidates }) => {
    const files = wholeFileEvidence(candidates, q, cfg);
    return (hit) => files.get(hit.file.blob) ?? 0;
  },
};
