import type { SearchResult } from '../../search/search.js';
import type { SearchQuery } from '../../service/asked-search.js';
import type { Config } from '../../config/config.js';
import { testSeams } from '../../util/test-seams.js';

/**
 * One line of JSON each way over the socket, then it closes. The question says what the asker is (its root, build,
 * environment and flags) so that a server answers only what a fresh `ocrag search` there would answer the same.
 */
export interface WarmRequest {
  root: string;
  version: string;
  /** searchEnvironment(): the OCRAG_* settings. */
  environment: string;
  /** The test switches set (test-seams.ts), which change answers as much as settings do. */
  seams: string;
  /** The CLI's global flags (`--model`, `--include`, …) as configFlags gives them. */
  flags: Partial<Config>;
  query: string;
  options: SearchQuery;
}

/** The server names itself in every reply; the asker trusts a reply only for its own root and build. */
export type WarmReply = { root: string; version: string; pid: number } & ({ results: SearchResult[]; notices: string[] } | { declined: string });

/** The longest question taken: a query is at most a few thousand characters (search/query-limit.ts). */
export const MAX_REQUEST_BYTES = 256 * 1024;

/** Each option a question may carry, with its type: anything else (a ranking switch, a reranker) is refused. */
const OPTION_TYPES: Record<string, 'string' | 'number' | 'boolean'> = {
  k: 'number',
  pathGlob: 'string',
  source: 'string',
  language: 'string',
  minScore: 'number',
  minMatch: 'number',
  update: 'boolean',
  committedOnly: 'boolean',
  sources: 'boolean',
  whole: 'boolean',
};

const FLAG_TYPES: Record<string, 'string' | 'number' | 'strings'> = { model: 'string', include: 'strings', exclude: 'strings', maxFileBytes: 'number' };

/** The question a line holds, or null for a line that is not one exactly. */
export function parseRequest(line: string): WarmRequest | null {
  let value: Partial<WarmRequest>;
  try {
    value = JSON.parse(line) as Partial<WarmRequest>;
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { root, version, environment, seams, query, options, flags } = value;
  if (![root, version, environment, seams, query].every((v) => typeof v === 'string')) return null;
  if (!plainObject(options) || !Object.entries(options).every(([k, v]) => v === undefined || typeof v === OPTION_TYPES[k])) return null;
  if (!plainObject(flags) || !Object.entries(flags).every(([k, v]) => v === undefined || fits(v, FLAG_TYPES[k]))) return null;
  return value as WarmRequest;
}

/** Flags as one string: the same flags give the same string, whatever their order or undefined members. */
export function flagsKey(flags: Partial<Config>): string {
  const entries = Object.entries(flags).filter(([, v]) => v !== undefined);
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function fits(value: unknown, type: 'string' | 'number' | 'strings' | undefined): boolean {
  if (type === 'strings') return Array.isArray(value) && value.every((v) => typeof v === 'string');
  return type !== undefined && typeof value === type;
}

/** The test switches that change answers, as one string (the trace file and the asker's entry are the asker's own). */
export function seamsKey(): string {
  const { warmTrace: _trace, fullProgram: _entry, ...seams } = testSeams();
  return JSON.stringify(seams);
}
