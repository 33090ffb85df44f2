import { PathScorer } from '../path-words.js';
import type { BoostSignal } from './signal.js';

/** Files whose path words match the query's words. */
export const pathWords: BoostSignal = {
  name: 'pathWords',
  stage: 'boost',
  weight: (cfg) => cfg.pathBoost,
  prepare: ({ q, cfg, view }) => {
    const paths = new PathScorer(q.keywords, view.pathWordFiles, view.files.length, { dirWeight: cfg.pathDirWeight, idf: cfg.pathIdf, informativeOnly: cfg.pathInformativeOnly, aboveWeight: cfg.pathAboveWeight });
    return (hit) => {
      const match = paths.score(hit.file);
      return match >= cfg.pathMinMatch ? match : 0;
    };
  },
};
