import { barrels } from './barrels.js';
import { coherence } from './coherence.js';
import { definitions } from './definitions.js';
import { fileCoverage } from './file-coverage.js';
import { fileEvidence } from './file-evidence.js';
import { fileSize } from './file-size.js';
import { fileTopic } from './file-topic.js';
import { imports } from './imports.js';
import { legacy } from './legacy.js';
import { pathRoles } from './path-roles.js';
import { pathWords } from './path-words.js';
import { proseAndConfig } from './prose-config.js';
import { queryPaths } from './query-paths.js';
import { saturation } from './saturation.js';
import { spelledNames } from './spelled-names.js';
import { typeDeclarations } from './type-declarations.js';

/**
 * The ranking stack, in the order it runs: boosts add up in this order, penalties multiply after every boost
 * (they may look at the boosts), then the whole-list stages, then selection. A new signal is one line here; its
 * settings join `RankingConfig` and `DEFAULT_RANKING` through this list.
 */
export const RANKING_SIGNALS = [
  definitions,
  spelledNames,
  pathWords,
  queryPaths,
  fileEvidence,
  fileTopic,
  pathRoles,
  proseAndConfig,
  legacy,
  barrels,
  imports,
  typeDeclarations,
  fileSize,
  fileCoverage,
  coherence,
  saturation,
] as const;

