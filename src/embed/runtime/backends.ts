import type { EmbedderBackend, FolderFacts } from './backend.js';
import { pipelineBackend } from './pipeline-backend.js';
import { staticBackend } from './static-backend.js';

export type { BackendLoadOptions, EmbedderBackend, FolderFacts, LoadableFolder } from './backend.js';

/** Which embedder backs a model folder: the first entry that accepts it. The pipeline accepts any, so it stays last. */
export const BACKENDS: readonly EmbedderBackend[] = [staticBackend, pipelineBackend];

export function backendFor(folder: FolderFacts): EmbedderBackend {
  return BACKENDS.find((backend) => backend.accepts(folder))!;
}

export function backendNamed(name: string): EmbedderBackend | undefined {
  return BACKENDS.find((backend) => backend.name === name);
}
