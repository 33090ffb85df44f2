import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findOnnxFile, readManifest } from './model-cache.js';
import { onnxFacts } from './onnx-sidecar.js';
import { locateModel, modelIdentity, type ModelSource } from './resolve-model.js';
import { TEACHER_DIM } from './teacher.js';

export interface ModelDescription {
  /** The id an index built with this model records. */
  id: string;
  dim: number;
  path: string;
  /** False when the default model still has to be built or a cached/folder model is missing. */
  built: boolean;
  /** Size of the model folder on disk (0 if not built). */
  bytes: number;
  source: ModelSource;
  /** "static" = token-lookup fast path; "pipeline" = Transformers.js/onnxruntime. */
  backend: 'static' | 'pipeline' | 'unknown';
}

/** For status/doctor output: what a model spec resolves to, without building or loading it. */
export async function describeModel(spec?: string): Promise<ModelDescription> {
  const location = locateModel(spec);
  const onnxPath = location.ready ? findOnnxFile(location.dir) : undefined;
  if (!onnxPath) {
    const dim = location.source === 'default' ? TEACHER_DIM : 0;
    return { id: location.name, dim, path: location.dir, built: false, bytes: 0, source: location.source, backend: 'unknown' };
  }
  const facts = onnxFacts(onnxPath);
  return {
    id: modelIdentity(location, facts),
    dim: facts.staticLookup?.dim ?? declaredDim(location.dir),
    path: location.dir,
    built: true,
    bytes: folderBytes(location.dir),
    source: location.source,
    backend: facts.staticLookup ? 'static' : 'pipeline',
  };
}

function declaredDim(dir: string): number {
  const manifestDim = Number(readManifest(dir)?.dim);
  if (manifestDim > 0) return manifestDim;
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { hidden_size?: number; d_model?: number };
    return config.hidden_size ?? config.d_model ?? 0;
  } catch {
    return 0;
  }
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}
