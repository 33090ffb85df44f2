import { readJson } from '../../util/json-file.js';
import { basename, join } from 'node:path';
import { MANIFEST_FILE } from '../models/model-cache.js';
import { isBlank } from './text-limits.js';

/** Text some retrieval models expect in front of queries / documents (e.g. "search_query: "). */
export interface Prompts {
  query: string;
  document: string;
}

/** Where a folder's prompts came from: a file of its own, a known model family's convention, or nowhere. */
export type PromptSource = typeof MANIFEST_FILE | typeof ST_CONFIG_FILE | `convention:${string}` | 'none';

export interface ModelPrompts extends Prompts {
  source: PromptSource;
}

export const ST_CONFIG_FILE = 'config_sentence_transformers.json';

const CODE_SEARCH_INSTRUCT = 'Instruct: Given a code search query, retrieve relevant code\nQuery: ';

/**
 * Prompts the model families' authors document, for folders that carry none (ONNX conversions often
 * drop config_sentence_transformers.json). First match wins: instruct-tuned e5 before plain e5, and
 * nomic's code model before its text models.
 */
const CONVENTIONS: ReadonlyArray<{ name: string; matches: RegExp; prompts: Prompts }> = [
  { name: 'qwen3-embedding', matches: /qwen3-embedding/i, prompts: { query: CODE_SEARCH_INSTRUCT, document: '' } },
  { name: 'e5-instruct', matches: /(^|[^a-z0-9])e5-.*instruct/i, prompts: { query: CODE_SEARCH_INSTRUCT, document: '' } },
  { name: 'e5', matches: /(^|[^a-z0-9])e5([^a-z0-9]|$)/i, prompts: { query: 'query: ', document: 'passage: ' } },
  { name: 'nomic-embed-code', matches: /nomic-embed-code|coderankembed/i, prompts: { query: 'Represent this query for searching relevant code: ', document: '' } },
  { name: 'nomic-embed', matches: /nomic-embed/i, prompts: { query: 'search_query: ', document: 'search_document: ' } },
  { name: 'bge-m3', matches: /bge-m3/i, prompts: { query: '', document: '' } },
];

/**
 * Explicit files win: ocrag's manifest (`queryPrefix`, `documentPrefix`), then sentence-transformers'
 * `config_sentence_transformers.json` (`prompts.query`, `prompts.document|passage`, and the prompt
 * `default_prompt_name` names for whichever is missing). Otherwise the convention of the model family
 * the folder names (manifest name, config.json `_name_or_path`, the folder's own name).
 */
export function modelPrompts(modelDir: string): ModelPrompts {
  const manifest = readJson(join(modelDir, MANIFEST_FILE));
  const st = readJson(join(modelDir, ST_CONFIG_FILE));
  const stPrompts = (st?.prompts ?? {}) as Record<string, unknown>;
  const defaultName = asString(st?.default_prompt_name);
  const stDefault = defaultName === undefined ? undefined : asString(stPrompts[defaultName]);
  const fromManifest = { query: asString(manifest?.queryPrefix), document: asString(manifest?.documentPrefix) };
  const fromSt = { query: asString(stPrompts.query) ?? stDefault, document: asString(stPrompts.document) ?? asString(stPrompts.passage) ?? stDefault };
  const query = fromManifest.query ?? fromSt.query;
  const document = fromManifest.document ?? fromSt.document;
  if (query !== undefined || document !== undefined) {
    const source = fromManifest.query !== undefined || fromManifest.document !== undefined ? MANIFEST_FILE : ST_CONFIG_FILE;
    return { query: query ?? '', document: document ?? '', source };
  }

  const config = readJson(join(modelDir, 'config.json'));
  for (const name of [asString(manifest?.name), asString(config?._name_or_path), basename(modelDir)]) {
    const convention = name ? CONVENTIONS.find((c) => c.matches.test(name)) : undefined;
    if (convention) return { ...convention.prompts, source: `convention:${convention.name}` };
  }
  return { query: '', document: '', source: 'none' };
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Blank texts stay blank (they embed to zeros on every path), others get the prefix. */
export function withPrefix(prefix: string, text: string): string {
  return prefix && !isBlank(text) ? prefix + text : text;
}
