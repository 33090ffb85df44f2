import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { ModelUnavailableError } from '../../util/errors.js';
import { DEFAULT_MODEL_ID, ensureDefaultModel, isDefaultModelFolder } from './build-static.js';
import { isDefaultModelSpec } from './model-ids.js';
import { cachedModelDir, findOnnxFile, isCompleteModelFolder, isValidModelName, modelsRoot, readManifest } from './model-cache.js';
import type { OnnxFacts } from './onnx-sidecar.js';

export type ModelSource = 'default' | 'cache' | 'folder';

/** Where a model spec points, without loading anything. */
export interface ModelLocation {
  source: ModelSource;
  /** The id for cache models, the folder name for folders. */
  name: string;
  dir: string;
  ready: boolean;
}


/**
 * "default" (or nothing) → the built-in model; an existing directory or anything path-like
 * (absolute, ./, ../, ~/) → that folder; otherwise a model id under `<cache>/models/<id>/`.
 */
export function locateModel(spec: string | undefined): ModelLocation {
  if (isDefaultModelSpec(spec)) {
    const dir = cachedModelDir(DEFAULT_MODEL_ID);
    return { source: 'default', name: DEFAULT_MODEL_ID, dir, ready: isDefaultModelFolder(dir) };
  }
  const text = spec as string;
  if (looksLikePath(text)) {
    const dir = resolve(text.replace(/^~(?=$|[/\\])/, homedir()));
    return { source: 'folder', name: basename(dir), dir, ready: isCompleteModelFolder(dir) };
  }
  if (!isValidModelName(text)) throw new Error(`"${text}" is neither a model folder nor a valid model id (owner/name)`);
  const dir = cachedModelDir(text);
  return { source: 'cache', name: text, dir, ready: isCompleteModelFolder(dir) };
}

function looksLikePath(spec: string): boolean {
  if (isAbsolute(spec) || /^(~|\.{1,2})([/\\]|$)/.test(spec)) return true;
  try {
    return statSync(spec).isDirectory();
  } catch {
    return false;
  }
}

/** Locates the model and makes sure it is usable, building the default model on first use. */
export async function requireModel(spec: string | undefined, log?: (line: string) => void): Promise<ModelLocation> {
  const location = locateModel(spec);
  if (location.ready) return location;
  if (location.source === 'default') return { ...location, dir: await ensureDefaultModel({ log }), ready: true };
  if (location.source === 'folder') {
    const what = existsSync(location.dir) ? 'is not a complete model folder' : 'does not exist';
    throw new ModelUnavailableError(
      `model folder ${location.dir} ${what}: it needs config.json, tokenizer.json and onnx/model.onnx (or onnx/model_quantized.onnx); or fetch one with "ocrag model pull <owner/name>" and pass --model <owner/name>`,
    );
  }
  throw new ModelUnavailableError(`model "${location.name}" not found in ${modelsRoot()}; run "ocrag model pull ${location.name}" when online or pass a folder`);
}

/**
 * The id recorded in an index: stable across machines for the same model. The default model and
 * copies of it keep their recipe name; anything else is `<name>@<first 12 hex of sha256(onnx)>`, followed
 * by the layout's tag when its files make it embed differently from plain mean pooling (model-layout.ts).
 */
export function modelIdentity(location: ModelLocation, facts: OnnxFacts, layoutTag = ''): string {
  if (location.source === 'default') return DEFAULT_MODEL_ID;
  const manifest = readManifest(location.dir);
  const onnxRel = relativeOnnxPath(location.dir);
  const recordedSha = onnxRel ? manifest?.files?.[onnxRel]?.sha256 : undefined;
  if (manifest?.kind === 'static-distilled' && manifest.name && recordedSha === facts.sha256) return manifest.name;
  const name = location.source === 'cache' ? location.name : (manifest?.name ?? location.name);
  return `${name}@${facts.sha256.slice(0, 12)}${layoutTag}`;
}

function relativeOnnxPath(dir: string): string | undefined {
  const file = findOnnxFile(dir);
  return file ? file.slice(join(dir, '/').length).replaceAll('\\', '/') : undefined;
}
