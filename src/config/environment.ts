import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFERRED_CA_CERTS, deferredCaFile } from '../util/deferred-ca.js';

/*
 * Every setting ocrag takes from its environment, one reader each: nothing outside src/config/ reads process.env
 * (test/architecture.test.ts), so what a user can set there is found here. A reader returns null (or undefined)
 * for a value that is unset or unusable, and its caller, which knows why, picks the default.
 */

/** The whole environment, for readers of a family of settings that take it as a parameter: s3Settings (AWS_*), remoteLimits (OCRAG_REMOTE_*_MS). */
export function environment(): NodeJS.ProcessEnv {
  return process.env;
}

/**
 * The environment of a program ocrag starts that is not ocrag (git, a shell, a browser): this process's, with
 * `extra` over it, and NODE_EXTRA_CA_CERTS as the user set it, which the installed command deferred
 * (scripts/launcher-head.sh): nothing changes for them.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  const deferred = env[DEFERRED_CA_CERTS];
  delete env[DEFERRED_CA_CERTS];
  if (deferred && !env.NODE_EXTRA_CA_CERTS) env.NODE_EXTRA_CA_CERTS = deferred;
  return env;
}

/** The environment of an ocrag process this one starts (a restart with settings): this process's, the deferral kept. */
export function ownChildEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** The file of certificates ocrag's https requests trust besides Node's own, when the installed command deferred it. */
export function deferredCaCerts(): string | null {
  return deferredCaFile(process.env);
}

/** Sets each variable the user left unset, for a native library that reads them once, when it loads. */
export function defaultEnvironment(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) process.env[name] ??= value;
}

/** Root of ocrag's per-user cache: `$OCRAG_CACHE`, else `$XDG_CACHE_HOME/ocrag`, else `~/.cache/ocrag`. */
export function cacheRoot(): string {
  if (process.env.OCRAG_CACHE) return resolve(process.env.OCRAG_CACHE);
  const xdg = process.env.XDG_CACHE_HOME;
  return resolve(xdg && xdg.length > 0 ? xdg : join(homedir(), '.cache'), 'ocrag');
}

/** `OCRAG_LARGE_STORE_CHUNKS`: from how many chunks a view is searched through the store's indexes. */
export function largeStoreChunks(): number | null {
  return Number(process.env.OCRAG_LARGE_STORE_CHUNKS) || null;
}

/** `OCRAG_MCP_WAIT_MS`: how long an MCP search waits for the index to catch up with HEAD (0 and up). */
export function mcpWaitMs(): number | null {
  const value = process.env.OCRAG_MCP_WAIT_MS;
  return value?.trim() && Number.isFinite(Number(value)) && Number(value) >= 0 ? Number(value) : null;
}

/** `OCRAG_EMBED_THREADS`: worker threads of the static embedder (0 and up). */
export function embedThreads(): number | null {
  const value = Number(process.env.OCRAG_EMBED_THREADS);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

/** `OCRAG_DEBUG`: an unexpected error prints its stack. */
export function debugStacks(): boolean {
  return !!process.env.OCRAG_DEBUG;
}

/** `NO_COLOR` set to anything (https://no-color.org), or `TERM=dumb`: no colours, whatever the stream is. */
export function colorRefused(): boolean {
  return ('NO_COLOR' in process.env && process.env.NO_COLOR !== '') || process.env.TERM === 'dumb';
}

/** `$HOME`, as git expands `~/` in its settings with it. */
export function homeVariable(): string | undefined {
  return process.env.HOME;
}

/** `$PATH`, where a program is found by name. */
export function pathVariable(): string | undefined {
  return process.env.PATH;
}

/** `HF_ENDPOINT`: the Hugging Face Hub (or a mirror) models are pulled from. */
export function huggingFaceEndpoint(): string | undefined {
  return process.env.HF_ENDPOINT;
}

/** `HF_TOKEN`: the token a pull from the Hub sends, for gated or private models. */
export function huggingFaceToken(): string | undefined {
  return process.env.HF_TOKEN;
}

/** `OCRAG_WARM=0` (or `off`): `ocrag search` answers in its own process even when a server of the repository runs. */
export function warmPathRefused(): boolean {
  const value = process.env.OCRAG_WARM?.trim().toLowerCase();
  return value === '0' || value === 'off' || value === 'false';
}

/**
 * The OCRAG_* settings that can change a search's answer (the model's cache, settings, limits), as one string: a
 * running server answers `ocrag search` for it only when both were started with the same (session/warm/). The
 * certificates the installed command deferred are not one: an agent's server started with `node` holds them as
 * NODE_EXTRA_CA_CERTS, the command as OCRAG_NODE_EXTRA_CA_CERTS, and NODE_EXTRA_CA_CERTS was never compared.
 */
export function searchEnvironment(): string {
  const ignored = new Set(['OCRAG_WARM', 'OCRAG_DEBUG', 'OCRAG_TEST_SEAMS', DEFERRED_CA_CERTS]);
  return Object.keys(process.env)
    .filter((name) => name.startsWith('OCRAG_') && !ignored.has(name))
    .sort()
    .map((name) => `${name}=${process.env[name]}`)
    .join('\n');
}

/** Whether the environment changes where git finds the repository (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_CEILING_DIRECTORIES`, …). */
export function gitDiscoveryOverridden(): boolean {
  return ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_PARAMETERS'].some((name) => process.env[name] !== undefined);
}

/** `GIT_INDEX_FILE`: the index git reads instead of the git folder's own (a hook during `git commit` sets it). */
export function gitIndexFileOverride(): string | undefined {
  return process.env.GIT_INDEX_FILE || undefined;
}
