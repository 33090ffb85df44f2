import type { Hit } from '../hit.js';
import { importsFactor, type ImportsSettings } from './imports.js';
import type { HitsSignal } from './signal.js';

const DEFAULTS = {
  /** Promote a file's best chunk by the evidence of its other chunks. */
  coherence: true,
  coherenceBoost: 0.2,
};

/**
 * File coherence: a file with several good chunks is more likely the answer than a file with one lucky chunk,
 * so each file's best hit gains a share of the best score in proportion to the file's summed evidence.
 */
export const coherence: HitsSignal<typeof DEFAULTS, ImportsSettings> = {
  name: 'coherence',
  stage: 'hits',
  defaults: DEFAULTS,
  apply(hits: Hit[], cfg) {
    if (!hits.length) return;
    const best = Math.max(...hits.map((h) => h.score));
    if (best <= 0) return;
    const sums = new Map<string, number>();
    const top = new Map<string, Hit>();
    const undoImports = cfg.imports && !cfg.importsInFileEvidence;
    for (const h of hits) {
      // A file's imports name what it uses: evidence for the file even when the chunk itself ranks lower.
      const evidence = undoImports ? h.score / importsFactor(h, cfg) : h.score;
      sums.set(h.file.path, (sums.get(h.file.path) ?? 0) + Math.max(0, evidence));
      const t = top.get(h.file.path);
      if (!t || h.score > t.score) top.set(h.file.path, h);
    }
    const maxSum = Math.max(...sums.values());
    if (maxSum <= 0) return;
    for (const [path, hit] of top) {
      hit.parts.coherence = best * cfg.coherenceBoost * (sums.get(path)! / maxSum);
      hit.score += hit.parts.coherence;
    }
  },
};
