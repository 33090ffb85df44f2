import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findOnnxFile, readManifest } from './model-cache.js';
import { onnxFacts } from './onnx-sidecar.js';
import { layoutTag, readModelLayout, type ModelLayout } from './model-layout.js';
import { locateModel, modelIdentity, type ModelSource } from './resolve-model.js';
import { TEACHER_DIM } from '../recipe/teacher.js';
import { backendFor, backendNamed } from '../runtime/backends.js';

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
  /** The backend's name (runtime/backends.ts): "static" = token-lookup fast path, "pipeline" = Transformers.js/onnxruntime; "unknown" until built. */
  backend: string;
  /** How the folder says it is used (model-layout.ts); absent until the model is there. */
  layout?: LayoutDescription;
  /** Why the model cannot be used as it stands (e.g. a pooling ocrag cannot reproduce). */
  problem?: string;
}

export interface LayoutDescription {
  /** Mode and the file it came from, e.g. "cls (1_Pooling/config.json)". */
  pooling: string;
  /** What the folder asks for; ocrag compares by cosine and L2-normalises either way. */
  normalize: string;
  queryPrompt: string;
  documentPrompt: string;
  promptSource: string;
  maxLength: number;
  maxLengthSource: string;
  ignoredModules: string[];
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
  let layout: ModelLayout | undefined;
  let problem: string | undefined;
  try {
    layout = readModelLayout(location.dir);
  } catch (e) {
    problem = (e as Error).message;
  }
  return {
    id: modelIdentity(location, facts, layout ? layoutTag(layout) : ''),
    dim: facts.staticLookup?.dim ?? declaredDim(location.dir),
    path: location.dir,
    built: true,
    bytes: folderBytes(location.dir),
    source: location.source,
    backend: backendFor({ dir: location.dir, onnx: facts, layout }).name,
    ...(layout && { layout: describeLayout(layout) }),
    ...(problem && { problem }),
  };
}

/** Whether the description's vector size is certain without loading the model (its backend reads it from the graph). */
export function describesDim(described: ModelDescription): boolean {
  return described.built && described.dim > 0 && !!backendNamed(described.backend)?.dimFromFacts;
}

function describeLayout(layout: ModelLayout): LayoutDescription {
  return {
    pooling: `${layout.pooling} (${layout.poolingSource})`,
    normalize: layout.normalize ? 'L2 (its Normalize module)' : 'L2 (by ocrag: the folder lists no Normalize module)',
    queryPrompt: layout.prompts.query,
    documentPrompt: layout.prompts.document,
    promptSource: layout.prompts.source,
    maxLength: layout.maxLength,
    maxLengthSource: layout.maxLengthSource,
    ignoredModules: layout.ignoredModules,
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
