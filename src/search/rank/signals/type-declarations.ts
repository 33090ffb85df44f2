import { innermost } from '../../../text/breadcrumb.js';
import type { PenaltySignal } from './signal.js';

const DEFAULTS = {
  /**
   * For questions on how the code works, chunks that only declare a shape (an interface, a type alias, a protocol)
   * rank below the code that does the work. Measured at 0.7 (off → on, questions naming types exempt): benchmark
   * NDCG@10 0.8862 → 0.8879 (architecture 0.8693 → 0.8715, semantic 0.8625 → 0.8652), Chinese 0.8621 → 0.8642,
   * dev set 0.8310 and long-query set 0.845 unchanged; flat from 0.8 to 0.6, 0.4 gives part of the gain back.
   */
  typeDeclarations: true,
  typeDeclarationPenalty: 0.7,
};

/** Breadcrumb kinds (as the chunker writes them) that declare a shape and hold no behaviour. */
const SHAPE_KINDS = new Set(['interface', 'type', 'protocol']);

/**
 * A question that names types asks about the declarations themselves (`how are the handler types inferred`):
 * exempt, benchmark 0.8867 → 0.8879 (semantic 0.8619 → 0.8652), Chinese 0.8637 → 0.8642.
 */
const TYPE_WORDS = new Set(['type', 'types', 'typed', 'typing', 'interface', 'interfaces', 'protocol', 'protocols', 'signature', 'signatures']);

/** Interfaces, type aliases and protocols, for a question on how the code works that does not ask about types. */
export const typeDeclarations: PenaltySignal<typeof DEFAULTS> = {
  name: 'typeDeclarations',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg }) => {
    if (q.isName || !q.asksHowItWorks || q.keywords.some((w) => TYPE_WORDS.has(w))) return () => 1;
    return (hit) => {
      // A shape the question names (`how IntoResponse converts ...`) is the answer, not a stand-in for it.
      if ((hit.parts.definitions ?? 0) > 0) return 1;
      const own = innermost(hit.candidate.chunk.symbol);
      return own && SHAPE_KINDS.has(own.kind) ? cfg.typeDeclarationPenalty : 1;
    };
  },
};
