import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE } from './model-cache.js';
import { isBlank } from './text-limits.js';

/** Text some retrieval models expect in front of queries / documents (e.g. "search_query: "). */
export interface Prompts {
  query: string;
  document: string;
}

/**
 * Read from ocrag's manifest (`queryPrefix`, `documentPrefix`) or from sentence-transformers'
 * `config_sentence_transformers.json` (`prompts.query`, `prompts.document|passage`).
 */
export function modelPrompts(modelDir: string): Prompts {
  const manifest = readJson(join(modelDir, MANIFEST_FILE));
  const st = readJson(join(modelDir, 'config_sentence_transformers.json'));
  const stPrompts = (st?.prompts ?? {}) as Record<string, unknown>;
  return {
    query: asString(manifest?.queryPrefix) ?? asString(stPrompts.query) ?? '',
    document: asString(manifest?.documentPrefix) ?? asString(stPrompts.document) ?? asString(stPrompts.passage) ?? '',
  };
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Blank texts stay blank (they embed to zeros on every path), others get the prefix. */
export function withPrefix(prefix: string, text: string): string {
  return prefix && !isBlank(text) ? prefix + text : text;
}
