import { join } from 'node:path';
import { ModelUnavailableError } from '../../util/errors.js';
import { readJson } from '../../util/json-file.js';
import { modelPrompts, type ModelPrompts } from '../runtime/prompts.js';
import { MAX_TOKENS } from '../runtime/text-limits.js';

/** How token vectors become one vector, as sentence-transformers' Pooling module names its modes. */
export type PoolingMode = 'mean' | 'cls' | 'lasttoken' | 'max';

/** How a model folder says it is to be used, read from its own files (sentence-transformers layout). */
export interface ModelLayout {
  pooling: PoolingMode;
  /** The file the pooling mode came from, or "default" (mean, when the folder names none). */
  poolingSource: string;
  /** The folder lists a Normalize module. Informational: ocrag compares by cosine, so it always L2-normalises. */
  normalize: boolean;
  prompts: ModelPrompts;
  /** Tokens per text, capped by ocrag's own limit. */
  maxLength: number;
  maxLengthSource: 'sentence_bert_config.json' | 'tokenizer_config.json' | 'ocrag';
  /** Module types in modules.json that ocrag does not run (e.g. a Dense projection). */
  ignoredModules: string[];
}

export const MODULES_FILE = 'modules.json';
const ST_MODULE = 'sentence_transformers.models.';
/** Modules ocrag reproduces: the ONNX graph is the Transformer, pooling and normalising happen here. */
const HANDLED_MODULES = ['Transformer', 'Pooling', 'Normalize'];
/** Each flag of a Pooling config and the mode it means; null for modes ocrag cannot reproduce from the ONNX output. */
const POOLING_FLAGS: ReadonlyArray<[flag: string, mode: PoolingMode | null]> = [
  ['pooling_mode_cls_token', 'cls'],
  ['pooling_mode_mean_tokens', 'mean'],
  // Mean times sqrt(length): the same direction as the mean, all that survives normalising.
  ['pooling_mode_mean_sqrt_len_tokens', 'mean'],
  ['pooling_mode_lasttoken', 'lasttoken'],
  ['pooling_mode_max_tokens', 'max'],
  ['pooling_mode_weightedmean_tokens', null],
];
/** Tokenizers write int(1e30) for "no limit"; no real model reads a million tokens. */
const LENGTH_SENTINEL = 1_000_000;

interface StModule {
  path: string;
  type: string;
}

/** Reads a model folder's pooling, normalisation, prompts and length limit. Never loads the model. */
export function readModelLayout(dir: string): ModelLayout {
  const modules = readModules(dir);
  const moduleName = (m: StModule) => (m.type.startsWith(ST_MODULE) ? m.type.slice(ST_MODULE.length) : m.type);
  const { pooling, poolingSource } = readPooling(dir, modules.find((m) => moduleName(m) === 'Pooling'));
  return {
    pooling,
    poolingSource,
    normalize: modules.some((m) => moduleName(m) === 'Normalize'),
    prompts: modelPrompts(dir),
    ...modelMaxLength(dir),
    ignoredModules: modules.map(moduleName).filter((name) => !HANDLED_MODULES.includes(name)),
  };
}

/** Config files of the folder's sentence-transformers modules (relative paths), for `model pull` to fetch. */
export function moduleConfigFiles(dir: string): string[] {
  return readModules(dir)
    .filter((m) => m.path !== '')
    .map((m) => `${m.path}/config.json`);
}

function readModules(dir: string): StModule[] {
  const list = readJson(join(dir, MODULES_FILE)) as unknown;
  if (!Array.isArray(list)) return [];
  return list
    .filter((m): m is Record<string, unknown> => !!m && typeof m === 'object')
    .map((m) => ({ path: typeof m.path === 'string' ? m.path.replace(/^\.?\/+|\/+$/g, '') : '', type: String(m.type ?? '') }))
    .filter((m) => !m.path.split('/').includes('..'));
}

function readPooling(dir: string, module: StModule | undefined): { pooling: PoolingMode; poolingSource: string } {
  if (!module) return { pooling: 'mean', poolingSource: 'default' };
  const file = `${module.path ? `${module.path}/` : ''}config.json`;
  const config = readJson(join(dir, file));
  if (!config) throw new ModelUnavailableError(`model folder ${dir}: ${MODULES_FILE} lists a Pooling module but ${file} is missing or not JSON`);
  const modes = POOLING_FLAGS.filter(([flag]) => config[flag] === true).map(([flag, mode]) => ({ flag, mode }));
  const mode = modes.length === 1 ? modes[0].mode : null;
  if (!mode) {
    const what = modes.length === 0 ? 'sets no pooling mode' : `sets ${modes.map((m) => m.flag).join(' + ')}`;
    throw new ModelUnavailableError(`model folder ${dir}: ${file} ${what}; ocrag pools by exactly one of cls, mean, lasttoken or max`);
  }
  return { pooling: mode, poolingSource: file };
}

/** `sentence_bert_config.json` `max_seq_length`, else the tokenizer's `model_max_length`, capped by MAX_TOKENS. */
export function modelMaxLength(dir: string): Pick<ModelLayout, 'maxLength' | 'maxLengthSource'> {
  const fromSt = sensibleLength(readJson(join(dir, 'sentence_bert_config.json'))?.max_seq_length);
  if (fromSt) return { maxLength: Math.min(fromSt, MAX_TOKENS), maxLengthSource: 'sentence_bert_config.json' };
  const fromTokenizer = sensibleLength(readJson(join(dir, 'tokenizer_config.json'))?.model_max_length);
  if (fromTokenizer) return { maxLength: Math.min(fromTokenizer, MAX_TOKENS), maxLengthSource: 'tokenizer_config.json' };
  return { maxLength: MAX_TOKENS, maxLengthSource: 'ocrag' };
}

function sensibleLength(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < LENGTH_SENTINEL ? value : undefined;
}

/**
 * What sets this layout apart from the one earlier ocrag assumed for every folder (mean pooling, the
 * folder's own prompts, the tokenizer's length): part of the model id, so an index embedded the old
 * way asks for a rebuild instead of mixing vectors. Empty when nothing differs.
 */
export function layoutTag(layout: ModelLayout): string {
  const parts = [
    layout.pooling === 'mean' ? '' : layout.pooling,
    conventionApplied(layout.prompts) ? layout.prompts.source.slice('convention:'.length) : '',
    layout.maxLengthSource === 'sentence_bert_config.json' ? `len${layout.maxLength}` : '',
  ].filter(Boolean);
  return parts.map((p) => `+${p}`).join('');
}

function conventionApplied(prompts: ModelPrompts): boolean {
  return prompts.source.startsWith('convention:') && (prompts.query !== '' || prompts.document !== '');
}
