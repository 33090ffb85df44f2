// The commit-history sets (bench/history/sets/<owner>__<name>.json): their shape, where they are, where their
// checkouts and mirrors are.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HistoryQuestion {
  /** The commit the subject comes from (made after the snapshot). */
  commit: string;
  subject: string;
  lang: 'en' | 'zh';
  /** Source files the commit modified, each present at the snapshot by the same path. */
  answers: string[];
}

export interface HistorySet {
  /** owner/name on GitHub. */
  repo: string;
  url: string;
  /** Every question is asked of this commit's tree. */
  snapshot: string;
  snapshotDate: string;
  /** The newest commit questions were taken from (the window is snapshot..until). */
  until: string;
  /** How it was mined (bench/history/mine.ts --months, --max): run again with these to reproduce it. */
  mining?: { months: number; max: number };
  questions: HistoryQuestion[];
}

export const SETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sets');
/** Where the checkouts are: $OCRAG_HISTORY/<owner>__<name>, default /tmp/ocrag-history. */
export const HISTORY_DIR = process.env.OCRAG_HISTORY ?? '/tmp/ocrag-history';
/** Where the `fetch` tool leaves bare copies: $OCRAG_HISTORY_MIRRORS/<owner>+<name>/repo, default /work/.mirror. */
export const MIRRORS_DIR = process.env.OCRAG_HISTORY_MIRRORS ?? '/work/.mirror';

export const setName = (repo: string): string => repo.replace('/', '__');

export function setFile(repo: string): string {
  return path.join(SETS_DIR, `${setName(repo)}.json`);
}

export function checkoutDir(set: Pick<HistorySet, 'repo'>): string {
  return path.join(HISTORY_DIR, setName(set.repo));
}

/** The git directory of a fetched copy: a bare repository, or a clone's `.git`. */
export function mirrorGitDir(repo: string): string {
  const base = path.join(MIRRORS_DIR, repo.replace('/', '+'), 'repo');
  return fs.existsSync(path.join(base, '.git')) ? path.join(base, '.git') : base;
}

/** Every set, or those named (by owner/name, owner__name or name alone); an unknown name is an error. */
export function loadSets(names: string[] = []): HistorySet[] {
  const files = fs.existsSync(SETS_DIR) ? fs.readdirSync(SETS_DIR).filter((f) => f.endsWith('.json')).sort() : [];
  const sets = files.map((f) => JSON.parse(fs.readFileSync(path.join(SETS_DIR, f), 'utf8')) as HistorySet);
  const matches = (s: HistorySet, n: string) => s.repo === n || setName(s.repo) === n || s.repo.split('/')[1] === n;
  const unknown = names.filter((n) => !sets.some((s) => matches(s, n)));
  if (unknown.length) throw new Error(`no history set named ${unknown.join(', ')} (known: ${sets.map((s) => s.repo.split('/')[1]).join(', ')})`);
  return names.length ? sets.filter((s) => names.some((n) => matches(s, n))) : sets;
}
