import { isCommentLine } from '../../../text/comments.js';
import { isBarrelChunk } from './barrels.js';
import { perChunk, type HitSite, type PenaltySignal } from './signal.js';

const DEFAULTS = {
  /**
   * Chunks that are a file's imports (with its licence), defining nothing a query names. Measured (benchmark / dev
   * set / Chinese): 1 → 0.885 / 0.830 / 0.861, 0.7 → 0.886 / 0.832 / 0.861, 0.5 → 0.886 / 0.831 / 0.860 (a file's
   * imports are also evidence for the file, which a stronger penalty takes away).
   */
  imports: true,
  importsPenalty: 0.7,
  /**
   * Whether the penalised chunk also counts for less in its file's summed evidence (file coherence). The imports
   * name what the file works with, so they stay evidence for it: off against on, Chinese 0.864 → 0.865 (chi 0.87 →
   * 0.88), benchmark 0.891, dev set 0.844, long-query set 0.846 and docs hit@3 84.0 % unchanged.
   */
  importsInFileEvidence: false,
};

/**
 * A file's preamble: `package`/`import` (Java, Kotlin, Scala, Swift, Dart, Go, Python, JS), `using X;` and
 * file-scoped `namespace X;` (C#, PHP), `use a\b;`/`use a::b;` (PHP, Rust), `#include`/`#import`/`#pragma` and
 * include guards (C family), `require` (Ruby, Lua), a Go import block's quoted paths and its parentheses.
 */
const PREAMBLE_LINE = new RegExp(
  [
    String.raw`^(?:package|import|library|part)\b.*$`,
    String.raw`^from\s+\S+\s+import\b.*$`,
    String.raw`^(?:global\s+)?using\s+(?:static\s+)?[\w.:\\]+(?:\s*=\s*[\w.:<>\\]+)?\s*;$`,
    String.raw`^namespace\s+[\w.\\]+\s*;$`,
    String.raw`^use\s+[^;]*;?$`,
    String.raw`^#\s*(?:include|import|pragma|ifndef|define|endif|if|else|elif)\b.*$`,
    String.raw`^(?:require|require_relative|load)\b.*$`,
    String.raw`^(?:local\s+\w+\s*=\s*)?require\s*[("'].*$`,
    String.raw`^(?:\w+\s+)?"[^"]+"$`,
    String.raw`^[()]$`,
    String.raw`^['"]use strict['"];?$`,
  ].join('|'),
);

/**
 * Languages whose imports can be a module's public face: Python's `from .x import Y as Y` and a JS/TS module's
 * imports it exports again name what they forward (a `pub use` is no preamble line either). Measured on the
 * benchmark: FastAPI's `websockets.py`, a list of such imports, is the answer to its question.
 */
const REEXPORTING: ReadonlySet<string> = new Set(['python', 'javascript', 'typescript', 'tsx']);

/** Doc comments (`//!`, `///`, `/**`, docstrings) say what a file is for: a preamble holding one may be the answer. */
const DOC_COMMENT = /^(?:\/\/[!/]|\/\*\*|"{3}|'{3})/;

/**
 * A chunk of a file's imports, perhaps under its licence: it names every type and module the file uses, so it matches
 * many query words and answers no question. One with a doc comment is left alone (a module's own description).
 */
export function isImportPreamble(text: string): boolean {
  let code = 0;
  // Open brackets of a statement that spans lines (`import {`, `from x import (`, `use a::{`): its names follow.
  let open = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (open > 0) {
      open = Math.max(0, open + bracketBalance(line));
      code++;
      continue;
    }
    if (DOC_COMMENT.test(line)) return false;
    // Before comments: `#include` reads as a `#` comment to them.
    if (PREAMBLE_LINE.test(line)) {
      code++;
      open = Math.max(0, bracketBalance(line));
    } else if (!isCommentLine(line)) return false;
  }
  return code >= MIN_IMPORT_LINES;
}

function bracketBalance(line: string): number {
  let n = 0;
  for (const ch of line) n += ch === '{' || ch === '(' ? 1 : ch === '}' || ch === ')' ? -1 : 0;
  return n;
}

/** One `package` line, or one import, is a file's head, not a list of names. */
const MIN_IMPORT_LINES = 2;

/** What the imports penalty declares, for a signal that undoes it (coherence). */
export type ImportsSettings = typeof DEFAULTS;

export const imports: PenaltySignal<typeof DEFAULTS> = {
  name: 'imports',
  stage: 'penalty',
  defaults: DEFAULTS,
  // A barrel has a penalty of its own; a chunk defining a queried name stays (its import may be the answer).
  prepare: ({ cfg }) => (hit) => importsFactor(hit, cfg),
};

/** The factor the imports penalty gave a hit (1 for none). */
export function importsFactor(hit: Pick<HitSite, 'candidate' | 'parts'>, cfg: Readonly<ImportsSettings>): number {
  const { chunk } = hit.candidate;
  if (REEXPORTING.has(chunk.language) || (hit.parts.definitions ?? 0) > 0) return 1;
  return isPreambleChunk(chunk) && !isBarrelChunk(chunk) ? cfg.importsPenalty : 1;
}

/** `isImportPreamble` of a chunk's text, worked out once per chunk held. */
const isPreambleChunk = perChunk(isImportPreamble);
