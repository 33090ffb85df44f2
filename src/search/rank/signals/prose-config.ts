import type { PenaltySignal } from './signal.js';

export const PROSE = new Set(['markdown', 'rst', 'asciidoc', 'text', 'latex', 'html', 'pdf']);
const CONFIG = new Set(['json', 'yaml', 'toml', 'ini', 'properties', 'xml', 'go_mod', 'make', 'dockerfile', 'cmake', 'starlark', 'hcl', 'nix']);

/** Extensions a changelog is written in, or none (`CHANGES`, `NEWS`). */
const PROSE_EXTENSION = '(?:\\.(?:md|markdown|rst|txt|adoc|asciidoc|org|html?))?';
const CHANGELOG_NAME = '(?:change[-_]?logs?|changes|news|history|releases?|release[-_ ]?notes|whats[-_]?new|updates?)(?:[-_. ]?v?\\d[\\w.-]*?)?';
/** A page named by the version it describes (`1.1.md`, `V3.5.5_2020-04-13.md`, a release post `2019-06-06-1.18.0.md`). */
const VERSION_NAME = '(?:\\d{4}-\\d{2}-\\d{2}-)?v?\\d+(?:\\.\\d+)+(?:[-_][\\w.-]*?)?';
const CHANGELOG_FOLDER = '(?:change[-_]?logs?|changelog\\.d|changes|releases?|release[-_]?notes|version[-_]?(?:info|logs?|history)[\\w-]*)/(?:[^/]+/)*(?:[^/]*\\.(?:md|markdown|rst|txt|adoc|asciidoc|org|html?)|[^/.]+)';

/**
 * What changed in each release: it names every feature, and answers how to use none of them. One file
 * (`CHANGELOG.md`, `NEWS`, `docs/release.md`, `CHANGELOG-3.2.md`), a page per version (`docs/release/1.1.md`), or a
 * folder of entries (`changelog.d/`, `changes/1234.bugfix.rst`); prose or no extension only (`src/history.go`,
 * `scripts/release.py` are code).
 */
export const CHANGELOG = new RegExp(`(?:^|/)(?:(?:${CHANGELOG_NAME}|${VERSION_NAME})${PROSE_EXTENSION}|${CHANGELOG_FOLDER})$`, 'i');

/** A folder of code (not `docs/` at the top): prose in it documents the code beside it. */
const SOURCE_TREE = /(?:^|\/)(?:src|sources|lib|include|pkg|internal)\/|\.docc\//i;

const DEFAULTS = {
  /** Prose (markdown, rst…) unless the query asks for docs or how to use the project; config (json, yaml…) unless it asks for config. */
  prose: true,
  prosePenalty: 0.5,
  /** Prose for a pasted report or trace (`QueryInfo.long`): its many words match documents, its answer is code (long-query set: NDCG@10 0.815 at 0.5, 0.823 at 0.3, 0.830 at 0.1, where a report about docs would lose them). */
  longQueryProsePenalty: 0.3,
  /** Prose for a question on how to use the project: its documentation is the answer, above the code. */
  howToProse: 2,
  /**
   * Prose for a how-to asked only as an instruction (`add a timeout to requests`, `--debug`): as often the task an
   * agent is doing to the code as a question on using the project.
   */
  instructionProse: 2,
  /** Prose for an instruction that asks for a change to the code (`add a timeout to …`): its answer is code. */
  changeRequestProse: 1,
  /**
   * Prose inside a source tree (`src/docs/`, `Sources/X/Documentation.docc/`) for a how-to asked only as an
   * instruction (`declare a named option with a value`): such prose is the reference of the code beside it, and an
   * instruction describes what that code does as often as it asks how to use the project. Neither lifted nor
   * lowered (dev set NDCG@10 0.814 at 2, 0.820 at 1 and at 0.5; docs benchmark hit@3 84.0 % at each, whose
   * documents live outside source folders; 1 keeps such prose for a how-to that it does answer).
   */
  sourceDocsInstructionProse: 1,
  configPenalty: 0.5,
};

/** Prose and configuration answer "how do I" questions about a project, rarely "where is the code that". */
export const proseAndConfig: PenaltySignal<typeof DEFAULTS> = {
  name: 'prose',
  stage: 'penalty',
  defaults: DEFAULTS,
  prepare: ({ q, cfg }) => (hit) => {
    const language = hit.candidate.chunk.language;
    if (PROSE.has(language)) {
      if (!q.asksHowTo || CHANGELOG.test(hit.file.display)) return q.wantsDocs ? 1 : q.long ? cfg.longQueryProsePenalty : cfg.prosePenalty;
      if (!q.asksHowToByInstruction) return cfg.howToProse;
      if (q.asksForChange) return cfg.changeRequestProse;
      return SOURCE_TREE.test(hit.file.display) ? cfg.sourceDocsInstructionProse : cfg.instructionProse;
    }
    if (CONFIG.has(language)) return q.wantsConfig ? 1 : cfg.configPenalty;
    return 1;
  },
};
