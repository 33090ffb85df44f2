import fs from 'node:fs';
import { OcragError } from '../util/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/** Everything a user can set. Precedence: defaults < .ocrag/config.json < OCRAG_* environment < flags. */
export interface Config {
  /** Globs of paths to index; empty = everything that is text. */
  include: string[];
  /** Globs of paths never to index (added to the built-in exclusions). */
  exclude: string[];
  /** Files larger than this are skipped. */
  maxFileBytes: number;
  /** Lines longer than this are cut when chunked; files whose lines are mostly longer are skipped as minified. */
  maxLineChars: number;
  /** Embedding model: "default", a model folder, or a model id in the cache. */
  model: string;
  /** Skip files that look like secrets (.env, keys, certificates) even when committed. */
  skipSecrets: boolean;
  /** `ocrag gc` keeps the manifests of checked-out branches plus this many most recently indexed others. */
  keepManifests: number;
  /** An index run collects garbage by itself once this share (percent) of the stored chunks is reclaimable. */
  autoGcPercent: number;
  /** ... or once `.ocrag/` is larger than this many MB (0: no budget). */
  storeBudgetMB: number;
  /** Whether index runs collect garbage by themselves at all. */
  autoGc: boolean;
  /** Folders under which an agent may add sources through MCP (`add_source`); the CLI may add any. */
  sourceRoots: string[];
  /** The most MB of files indexed from one source (or a plain folder); files past it are skipped with a reason. */
  maxSourceMB: number;
  /** The team's remote store (`s3://bucket/prefix`, or a shared folder: `file:///path`): `ocrag publish` appends to it, index runs copy from it what they lack; '' for none. */
  remote: string;
  /** The repository's name in the remote store (its manifests' folder); '' names it by its root commit. */
  remoteName: string;
  /** The link the panel gives each result, to open it in an editor: `{path}` (absolute) and `{line}` are filled in. */
  editorLink: string;
}

export const DEFAULT_CONFIG: Config = {
  include: [],
  exclude: [],
  maxFileBytes: 1024 * 1024,
  maxLineChars: 1000,
  model: 'default',
  skipSecrets: true,
  keepManifests: 10,
  autoGcPercent: 30,
  storeBudgetMB: 0,
  autoGc: true,
  sourceRoots: [],
  // A generous bound on what one `ocrag add` can pull in (a home folder by mistake): 512 MB of text is ~200,000 chunks of ~2.5 KB.
  maxSourceMB: 512,
  remote: '',
  remoteName: '',
  editorLink: 'vscode://file/{path}:{line}',
};

/** Number keys where 0 means "none" rather than an error. */
const ZERO_MEANS_NONE = new Set<keyof Config>(['storeBudgetMB']);

const ENV_KEYS: Record<string, keyof Config> = {
  OCRAG_INCLUDE: 'include',
  OCRAG_EXCLUDE: 'exclude',
  OCRAG_MAX_FILE_BYTES: 'maxFileBytes',
  OCRAG_MAX_LINE_CHARS: 'maxLineChars',
  OCRAG_MODEL: 'model',
  OCRAG_SKIP_SECRETS: 'skipSecrets',
  OCRAG_KEEP_MANIFESTS: 'keepManifests',
  OCRAG_AUTO_GC_PERCENT: 'autoGcPercent',
  OCRAG_STORE_BUDGET_MB: 'storeBudgetMB',
  OCRAG_AUTO_GC: 'autoGc',
  OCRAG_SOURCE_ROOTS: 'sourceRoots',
  OCRAG_MAX_SOURCE_MB: 'maxSourceMB',
  OCRAG_REMOTE: 'remote',
  OCRAG_REMOTE_NAME: 'remoteName',
  OCRAG_EDITOR_LINK: 'editorLink',
};

/** Merges the layers in precedence order (`file` is the index's config.json); each layer is checked and a bad value names its source. */
export function loadConfig(file: string, flags: Partial<Config> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  return { ...DEFAULT_CONFIG, ...readConfigFile(file), ...fromEnv(env), ...definedOnly(flags) };
}

export function readConfigFile(file: string): Partial<Config> {
  return checkedConfig(rawConfig(file), file);
}

/** The file's JSON object as written (unknown keys and bad values still in it); {} when there is no file. */
function rawConfig(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  let raw: unknown;
  try {
    // A byte order mark is what Notepad and PowerShell 5 put before UTF-8: invisible, and no part of the JSON.
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new OcragError(`invalid config ${file}: ${(e as Error).message} (fix or delete it)`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new OcragError(`invalid config ${file}: expected a JSON object`);
  return raw as Record<string, unknown>;
}

function checkedConfig(raw: Record<string, unknown>, file: string): Partial<Config> {
  const out: Partial<Config> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(key in DEFAULT_CONFIG)) throw new OcragError(`invalid config ${file}: unknown key "${key}" (known: ${Object.keys(DEFAULT_CONFIG).join(', ')})`);
    Object.assign(out, { [key]: checkValue(key as keyof Config, value, file) });
  }
  return out;
}

function fromEnv(env: NodeJS.ProcessEnv): Partial<Config> {
  const out: Partial<Config> = {};
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    Object.assign(out, { [key]: parseText(key, value, name) });
  }
  return out;
}

/** Turns a string (environment or flag) into the typed value of a key. */
export function parseText(key: keyof Config, value: string, source: string): Config[keyof Config] {
  const kind = typeof DEFAULT_CONFIG[key];
  if (Array.isArray(DEFAULT_CONFIG[key])) return value.split(',').map((s) => s.trim()).filter(Boolean);
  if (kind === 'number') return checkValue(key, Number(value), source);
  if (kind === 'boolean') {
    if (!/^(1|0|true|false|yes|no)$/i.test(value)) throw new OcragError(`invalid ${source}: expected true or false, got "${value}"`);
    return /^(1|true|yes)$/i.test(value);
  }
  return checkValue(key, value, source);
}

function checkValue(key: keyof Config, value: unknown, source: string): Config[keyof Config] {
  const expected = DEFAULT_CONFIG[key];
  if (Array.isArray(expected)) {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new OcragError(`invalid ${source}: "${key}" must be a list of glob strings`);
    return value as string[];
  }
  if (typeof expected === 'number') {
    const least = ZERO_MEANS_NONE.has(key) ? 0 : 1;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < least || !Number.isInteger(value)) {
      throw new OcragError(`invalid ${source}: "${key}" must be a ${least ? 'positive' : 'non-negative'} whole number`);
    }
    return value;
  }
  if (typeof value !== typeof expected) throw new OcragError(`invalid ${source}: "${key}" must be a ${typeof expected}`);
  if (key === 'editorLink') checkEditorLink(value as string, source);
  return value as Config[keyof Config];
}

/** A link the panel can give: an address with a scheme of its own (vscode:, idea:, subl:, https:) that names `{path}`; never one that runs script. */
function checkEditorLink(link: string, source: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link)?.[1].toLowerCase();
  if (!scheme || !link.includes('{path}')) throw new OcragError(`invalid ${source}: "editorLink" must be an address with {path} (and {line}) in it, e.g. vscode://file/{path}:{line}`);
  if (['javascript', 'data', 'vbscript', 'blob'].includes(scheme)) throw new OcragError(`invalid ${source}: "editorLink" may not be a ${scheme}: address`);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Adds a glob to the config file's `exclude` (the file made when missing, its other keys kept as they are); false
 * when it was there already. A file that does not parse is refused as loading it would be, and left alone.
 */
export function addExcludeGlob(file: string, glob: string): boolean {
  const raw = rawConfig(file);
  const exclude = checkedConfig(raw, file).exclude ?? [];
  if (exclude.includes(glob)) return false;
  writeFileAtomic(file, `${JSON.stringify({ ...raw, exclude: [...exclude, glob] }, null, 2)}\n`);
  return true;
}
