// The shapes and constants that cross the front door: what a workspace answers, and what surfaces render of it.
export type { Config } from '../config/config.js';
export type { PlainFolderUse } from '../index/index-context.js';
export type { IndexPlan } from '../index/dry-run.js';
export type { GcResult } from '../index/gc.js';
export type { IndexProgress, IndexSummary } from '../index/indexer.js';
export { progressPercent } from '../index/progress.js';
export { DEFAULT_MIN_MATCH } from '../search/relevance.js';
export type { SearchResult } from '../search/search.js';
export type { Excluded } from '../service/exclude.js';
export type { FileState, ListedFile } from '../service/file-list.js';
export type { RelatedAnswer, RelatedQuery } from '../service/related.js';
export type { IndexStatus, RemoteStatus } from '../service/status.js';
export { STDOUT_NAME } from '../share/artifact-target.js';
export type { ExportOptions, ExportSummary } from '../share/export.js';
export type { ImportSummary } from '../share/import.js';
export type { PublishSummary } from '../share/publish.js';
export type { SourceSpec } from '../store/sources.js';
export { GitError } from '../git/run.js';
