import { testSeams, type TestSeams } from '../util/test-seams.js';
import { DOCUMENT_REVISIONS, RULE_REVISIONS, SFC_REVISIONS } from './revisions.js';

/**
 * The chunker's versions. Each language's chunking has a revision of its own: its `SyntaxRules.version`, or, for
 * a language without rules, the line windows' revision. A chunk id holds the version of its language: the base
 * version while that revision is 1, else `<base>+<language>.<revision>` (the line windows as `lines`). So
 * raising one language's revision changes the ids of its chunks only, and the ids of every chunk made before
 * versions were per language (all `'1'`) stay as they were.
 *
 * An index records the whole table as one string, the base then every revision past 1 in key order
 * (`1+lines.2+rust.3`): manifests, the store's metadata and artifact headers carry it as `chunkerVersion`.
 */

/** Version of what all languages share (span planning, line handling): raising it re-chunks every file. */
export const BASE_CHUNKER_VERSION = '1';

/**
 * Revision of the line windows that files of languages without rules are cut into. 2: CSV and TSV files, once
 * "text" in windows, became tables of their own (documents.ts), and only a new revision re-chunks what a store
 * holds of them as "text"; other windowed files keep their text, so their contents are found stored, not embedded.
 */
const LINE_WINDOWS_REVISION = 2;
const LINE_WINDOWS = 'lines';

export interface ChunkerVersions {
  readonly base: string;
  /** A language with rules, or "lines", → its revision; revisions of 1 are left out. */
  readonly revisions: Readonly<Record<string, number>>;
}

interface Entry {
  readonly versions: ChunkerVersions;
  readonly text: string;
  /** The languages with a revision of their own (rules or a document format); every other one is in line windows. */
  readonly ruled: ReadonlySet<string>;
}

let current: (Entry & { seams: Pick<TestSeams, 'chunkerRevisions' | 'ruleless'> }) | null = null;

/** The versions this ocrag chunks with, as an index records them. */
export function chunkerVersion(): string {
  return currentEntry().text;
}

/** The version in the ids of chunks of this language (as the chunker names it, e.g. "rust", "markdown"). */
export function chunkerVersionOf(language: string, versions?: ChunkerVersions): string {
  const entry = currentEntry();
  versions ??= entry.versions;
  const key = entry.ruled.has(language) ? language : LINE_WINDOWS;
  return Object.hasOwn(versions.revisions, key) ? `${versions.base}+${key}.${versions.revisions[key]}` : versions.base;
}

export function formatChunkerVersions(versions: ChunkerVersions): string {
  const keys = Object.keys(versions.revisions).filter((k) => versions.revisions[k] !== 1).sort();
  return [versions.base, ...keys.map((k) => `${k}.${versions.revisions[k]}`)].join('+');
}

/** Reads a recorded table; a string that is not one (say, from a foreign artifact) is a base that matches nothing. */
export function parseChunkerVersions(text: string): ChunkerVersions {
  const [base, ...parts] = text.split('+');
  const revisions: Record<string, number> = {};
  for (const part of parts) {
    const m = /^([a-z][a-z0-9_]*)\.([1-9]\d{0,8})$/.exec(part);
    if (!m || Object.hasOwn(revisions, m[1])) return { base: text, revisions: {} };
    if (m[2] !== '1') revisions[m[1]] = Number(m[2]);
  }
  return { base, revisions };
}

function currentEntry(): Entry {
  const { chunkerRevisions, ruleless: seamRuleless } = testSeams();
  if (!current || current.seams.chunkerRevisions !== chunkerRevisions || current.seams.ruleless !== seamRuleless) {
    // Tests chunk as an ocrag from before some languages had rules did (the seam `ruleless`, as rules.ts reads it).
    const ruleless = new Set(seamRuleless);
    const rules = Object.fromEntries(Object.entries(RULE_REVISIONS).filter(([language]) => !ruleless.has(language)));
    const own = { ...rules, ...DOCUMENT_REVISIONS, ...SFC_REVISIONS };
    const revisions: Record<string, number> = { ...own, [LINE_WINDOWS]: LINE_WINDOWS_REVISION };
    // Tests raise revisions without editing rules (the seam `chunkerRevisions`).
    for (const [key, value] of Object.entries(chunkerRevisions ?? {})) if (value >= 1) revisions[key] = Math.floor(value);
    for (const key of Object.keys(revisions)) if (revisions[key] === 1) delete revisions[key];
    const versions = { base: BASE_CHUNKER_VERSION, revisions };
    current = { seams: { chunkerRevisions, ruleless: seamRuleless }, versions, text: formatChunkerVersions(versions), ruled: new Set(Object.keys(own)) };
  }
  return current;
}

/**
 * The chunker version of each language, worked out once per language: asked per row, it read the environment
 * each time, 0.1 s of a fresh clone of tokio's 14,121 rows (CPU profile).
 */
export function chunkerVersionsByLanguage(identity: { chunkerVersion: string }): (language: string) => string {
  const versions = parseChunkerVersions(identity.chunkerVersion);
  const known = new Map<string, string>();
  return (language) => {
    let v = known.get(language);
    if (v === undefined) known.set(language, (v = chunkerVersionOf(language, versions)));
    return v;
  };
}
