import type { QueryInfo } from '../../query.js';
import type { RankingConfig } from '../config.js';
import { pathRole } from '../path-roles.js';
import { PROSE } from './prose-config.js';
import type { PenaltySignal } from './signal.js';

/** Tests, examples, vendored copies, declaration stubs and package markers, told by their path. */
export const pathRoles: PenaltySignal = {
  name: 'penalties',
  stage: 'penalty',
  prepare: ({ q, cfg }) => (hit) => pathPenalty(hit.file.path, q, cfg, PROSE.has(hit.candidate.chunk.language)),
};

const cachedPenalty = new Map<string, number>();

/** `prose`: the chunk is documentation, which a docs/ folder holds as its own, not as example code. */
export function pathPenalty(path: string, q: QueryInfo, cfg: RankingConfig, prose = false): number {
  const key = `${cfg.testPenalty},${cfg.examplePenalty},${cfg.secondaryPenalty},${cfg.declarationPenalty},${cfg.packageMarkerPenalty},${q.wantsTests ? 1 : 0}${q.wantsExamples ? 1 : 0}${prose ? 1 : 0}${path}`;
  let p = cachedPenalty.get(key);
  if (p === undefined) {
    const role = pathRole(path);
    p = 1;
    if (role.test && !q.wantsTests) p *= cfg.testPenalty;
    if (role.example && !q.wantsExamples && !(prose && DOCS_DIR.test(path))) p *= cfg.examplePenalty;
    if (role.secondary) p *= cfg.secondaryPenalty;
    if (role.declaration) p *= cfg.declarationPenalty;
    if (role.packageMarker) p *= cfg.packageMarkerPenalty;
    if (cachedPenalty.size > 50_000) cachedPenalty.clear();
    cachedPenalty.set(key, p);
  }
  return p;
}

const DOCS_DIR = /(?:^|\/)docs?\//i;
